// What an EVM implements to run the execution-spec-tests state tests (`npm run eest:state`): one case in, the post
// state (or its root) and the logs out, or the transaction's rejection. Plain values only, so that any EVM — EthereumJS
// today (ethereumjsExecutor.ts), Sponge's own (spongeExecutor.ts, once src/evm can run a transaction) — plugs in
// behind the same runner, which does the parsing, the roots, the hashing and the verdicts.

import type { Fork } from '../../chain/evmFork.js'
import type { PlainState } from '../../state/accountsRoot.js'
import type { Hex } from '../../util/hex.js'

/** A 20-byte address: lowercase, 0x-prefixed hex (the key of a PlainState). */
export type Address = Hex

/** The blob side of a block from Cancun: its excess blob gas, and the fork's schedule from the case's config. */
export interface BlobEnv {
  excessBlobGas: bigint
  /** The blob base fee the excess sets with this fork's update fraction (EIP-4844's fake exponential; BLOBBASEFEE). */
  baseFee: bigint
  /** Blobs per block the fork targets and allows (the case's `config.blobSchedule` for its fork). */
  target: number
  max: number
  baseFeeUpdateFraction: number
}

/** The block the transaction runs in. */
export interface StateTestEnv {
  chainId: bigint
  coinbase: Address
  number: bigint
  timestamp: bigint
  gasLimit: bigint
  /** PREVRANDAO (the fixture's currentRandom) from Paris on; zeros before. */
  prevRandao: Uint8Array
  /** DIFFICULTY before Paris; 0 from Paris on. */
  difficulty: bigint
  /** From London on; undefined before. */
  baseFee: bigint | undefined
  /** From Cancun on; undefined before. */
  blob: BlobEnv | undefined
}

export interface AccessListEntry {
  address: Address
  storageKeys: readonly bigint[]
}

/** An EIP-7702 authorization as signed. The executor recovers its authority itself (an invalid one is skipped). */
export interface Authorization {
  chainId: bigint
  address: Address
  nonce: bigint
  yParity: bigint
  r: bigint
  s: bigint
  /** The authority as the fixture states it; absent when the signature recovers to none. For diagnosis only. */
  signer: Address | undefined
}

/** The transaction of one case: the fixture's variant chosen by the case's indexes, decoded. */
export interface StateTestTx {
  /** EIP-2718 type: 0 legacy, 1 access list, 2 fee market, 3 blob, 4 set code. */
  type: 0 | 1 | 2 | 3 | 4
  /** The signer, as the fixture states it (the signature in `raw` recovers to it). */
  sender: Address
  nonce: bigint
  gasLimit: bigint
  /** Undefined: a contract creation. */
  to: Address | undefined
  value: bigint
  data: Uint8Array
  /** Types 0 and 1. */
  gasPrice: bigint | undefined
  /** Types 2, 3 and 4. */
  maxFeePerGas: bigint | undefined
  maxPriorityFeePerGas: bigint | undefined
  /** Empty for type 0. */
  accessList: readonly AccessListEntry[]
  /** Type 3. */
  maxFeePerBlobGas: bigint | undefined
  blobVersionedHashes: readonly Uint8Array[]
  /** Type 4. */
  authorizationList: readonly Authorization[]
  /** The signed transaction as the fixture gives it (`txbytes`: RLP, or the EIP-2718 envelope of a typed one). */
  raw: Uint8Array
}

/** One case: one post entry of a state test (a fork and one choice of data, gas and value). */
export interface StateTestInput {
  /** The rules: BPO forks run as Osaka (their blob schedule is in `env.blob`). */
  fork: Fork
  /** The fork as the fixture names it: Frontier … Osaka (EIP150, EIP158, ConstantinopleFix, or a BPO fork). */
  forkName: string
  env: StateTestEnv
  pre: PlainState
  tx: StateTestTx
}

export interface TxLog {
  address: Address
  topics: readonly Uint8Array[]
  data: Uint8Array
}

/**
 * What became of the transaction. Executed: the whole post state as plain accounts (the runner computes the root, and
 * names the accounts that differ) or the executor's own state root, with the logs in order. Rejected: the transaction
 * is invalid (nonce, funds, intrinsic gas, fee caps, blob rules…); the state stays the pre-state.
 *
 * The post state is the block's after the transaction: the coinbase paid its priority fee (nothing else: no block
 * reward, no withdrawals, no system calls), touched empty accounts removed (EIP-161).
 */
export type StateTestOutcome =
  | { kind: 'accounts'; accounts: PlainState; logs: readonly TxLog[] }
  | { kind: 'root'; stateRoot: Uint8Array; logs: readonly TxLog[] }
  | { kind: 'rejected'; reason: string }

/** An EVM as the runner drives it: one instance per worker thread, cases run one after another. */
export interface StateTestExecutor {
  run(input: StateTestInput): StateTestOutcome | Promise<StateTestOutcome>
}

/** What an executor module exports: `--evm ethereumjs` loads ethereumjsExecutor.js, `--evm sponge` spongeExecutor.js. */
export interface ExecutorModule {
  createExecutor(): StateTestExecutor | Promise<StateTestExecutor>
}
