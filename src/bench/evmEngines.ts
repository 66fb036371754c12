import { type Block, createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { type EVM, type EVMRunCallOpts, createEVM } from '@ethereumjs/evm'
import { Caches, MerkleStateManager, SimpleStateManager } from '@ethereumjs/statemanager'
import { Address, createAccount } from '@ethereumjs/util'
import { Fork } from '../chain/evmFork.js'
import { customCrypto } from '../crypto/customCrypto.js'
import type { BlockEnv } from '../evm/env.js'
import { CallKind, type Message, Status } from '../evm/frame.js'
import { Evm } from '../evm/interpreter.js'
import { MapStateSource } from '../evm/mapState.js'
import { WorldState } from '../evm/state.js'
import { addressToBytes, wordToBytes } from '../evm/words.js'
import { bytesToHex } from '../util/hex.js'
import type { EvmCase } from './evmCases.js'

// The two engines of bench:evm on one case: Sponge's interpreter (`Evm.run` of the case's message on a WorldState over
// a MapStateSource) and EthereumJS's (`evm.runCall` on a state manager holding the same accounts). Each keeps one state
// for all its runs, so after the first run every account, slot and code analysis is cached; each run is undone after
// (Sponge: `abortTransaction`, the journal popped and the transaction's sets cleared, the caches kept; EthereumJS: a
// journal checkpoint reverted), so every run starts from the same state with cold access sets, as a transaction does.

/** What a run did, in a form both engines give and that compares as text. */
export interface Outcome {
  status: 'success' | 'revert' | 'error'
  gasUsed: number
  refund: number
  output: string
  logs: string[]
  /** The case's `slots` after the run. */
  slots: string[]
}

export interface Engine {
  /** One run, timed: nothing read back. */
  run(): unknown
  /** One run, with what it did read back (not timed). */
  check(): Promise<Outcome>
}

const GAS_PRICE = 7n
const BLOCK = {
  coinbase: 0xc014baee00000000000000000000000000000001n,
  number: 21_000_000n,
  timestamp: 1_760_000_000n,
  gasLimit: 60_000_000n,
  prevRandao: 0x5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eedn,
  baseFee: 5n,
  /** EthereumJS's for an excess blob gas of zero. */
  blobBaseFee: 1n,
  chainId: 1n,
} as const

const logText = (address: Uint8Array, topics: Uint8Array[], data: Uint8Array) =>
  `${bytesToHex(address)} ${topics.map((t) => bytesToHex(t)).join(',')} ${bytesToHex(data)}`

export function spongeEngine(c: EvmCase): Engine {
  const state = new WorldState(new MapStateSource(c.accounts))
  const block: BlockEnv = { ...BLOCK, difficulty: 0n, blockHash: () => 0n }
  const evm = new Evm({ fork: Fork.osaka, block, state })
  evm.tx = { origin: c.caller, gasPrice: GAS_PRICE, blobHashes: [] }
  const msg: Message = {
    kind: CallKind.call,
    caller: c.caller,
    to: c.to,
    codeAddress: c.to,
    value: 0n,
    apparentValue: 0n,
    input: c.input,
    gas: c.gas,
    gasBase: 0n,
    isStatic: false,
    depth: 0,
  }
  return {
    run() {
      const r = evm.run(msg)
      state.abortTransaction()
      return r
    },
    async check() {
      const r = evm.run(msg)
      const outcome: Outcome = {
        status: r.status === Status.success ? 'success' : r.status === Status.revert ? 'revert' : 'error',
        gasUsed: c.gas - r.gasLeft,
        refund: state.refund,
        output: bytesToHex(r.output),
        logs: state.logs.map((l) => logText(addressToBytes(l.address), l.topics.map(wordToBytes), l.data)),
        slots: c.slots.map(([a, s]) => `0x${state.getStorage(state.get(a), s).toString(16)}`),
      }
      state.abortTransaction()
      return outcome
    },
  }
}

/** The state managers EthereumJS can run on: its plain maps (createEVM's default), or its trie-backed one with caches (what Sponge's exec uses). */
export type EthereumjsState = 'merkle' | 'simple'

export async function ethereumjsEngine(c: EvmCase, kind: EthereumjsState = 'simple'): Promise<Engine> {
  const common = new Common({ chain: Mainnet, hardfork: Hardfork.Osaka, customCrypto: customCrypto() })
  const sm = kind === 'merkle' ? new MerkleStateManager({ common, caches: new Caches() }) : new SimpleStateManager({ common })
  await sm.checkpoint()
  for (const [address, a] of c.accounts) {
    const at = new Address(addressToBytes(address))
    await sm.putAccount(at, createAccount({ nonce: a.nonce, balance: a.balance }))
    if (a.code.length > 0) await sm.putCode(at, a.code)
    for (const [slot, value] of a.storage) await sm.putStorage(at, wordToBytes(slot), stripZeros(wordToBytes(value)))
  }
  await sm.commit()
  const evm: EVM = await createEVM({ common, stateManager: sm })
  const block: Block = createBlock(
    {
      header: {
        number: BLOCK.number,
        timestamp: BLOCK.timestamp,
        coinbase: addressToBytes(BLOCK.coinbase),
        gasLimit: BLOCK.gasLimit,
        mixHash: wordToBytes(BLOCK.prevRandao),
        difficulty: 0n,
        baseFeePerGas: BLOCK.baseFee,
        excessBlobGas: 0n,
        blobGasUsed: 0n,
      },
    },
    { common, skipConsensusFormatValidation: true },
  )
  const caller = new Address(addressToBytes(c.caller))
  const opts: EVMRunCallOpts = {
    block,
    caller,
    origin: caller,
    to: new Address(addressToBytes(c.to)),
    value: 0n,
    data: c.input,
    gasLimit: BigInt(c.gas),
    gasPrice: GAS_PRICE,
    skipNonceIncrement: true,
  }
  return {
    async run() {
      await evm.journal.checkpoint()
      const r = await evm.runCall(opts)
      await evm.journal.revert()
      return r
    },
    async check() {
      await evm.journal.checkpoint()
      const r = (await evm.runCall(opts)).execResult
      const error = r.exceptionError?.error
      const slots: string[] = []
      for (const [a, s] of c.slots) {
        const v = await sm.getStorage(new Address(addressToBytes(a)), wordToBytes(s))
        let n = 0n
        for (const b of v) n = (n << 8n) | BigInt(b)
        slots.push(`0x${n.toString(16)}`)
      }
      await evm.journal.revert()
      return {
        status: error === undefined ? 'success' : error === 'revert' ? 'revert' : 'error',
        gasUsed: Number(r.executionGasUsed),
        refund: Number(r.gasRefund ?? 0n),
        output: bytesToHex(r.returnValue),
        logs: (r.logs ?? []).map(([address, topics, data]) => logText(address, topics, data)),
        slots,
      }
    },
  }
}

function stripZeros(b: Uint8Array): Uint8Array {
  let i = 0
  while (i < b.length && b[i] === 0) i++
  return b.subarray(i)
}

/** The fields in which two outcomes differ, each as `field: a ≠ b`; empty when they agree. */
export function differences(a: Outcome, b: Outcome): string[] {
  const out: string[] = []
  for (const k of ['status', 'gasUsed', 'refund', 'output', 'logs', 'slots'] as const) {
    const x = JSON.stringify(a[k])
    const y = JSON.stringify(b[k])
    if (x !== y) out.push(`${k}: ${x} ≠ ${y}`)
  }
  return out
}
