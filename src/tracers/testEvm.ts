import { Fork } from '../chain/evmFork.js'
import type { BlockEnv } from '../evm/env.js'
import { Evm } from '../evm/interpreter.js'
import { MapStateSource } from '../evm/mapState.js'
import { WorldState } from '../evm/state.js'
import type { EvmTransaction, TxOutcome } from '../evm/transaction.js'
import type { PlainAccount } from '../state/accountsRoot.js'
import { hexToBytes } from '../util/hex.js'
import { type TraceContext, type TxTracer, traceTransaction } from './txTracer.js'

// The tracers' tests run Sponge's EVM over plain maps: a sender with funds, contracts given as code, one transaction
// traced from start to end as a runner drives it.

export const SENDER = 0xa11cen
export const COINBASE = 0xc0ffeen
export const CONTRACT = 0xc0de01n
export const OTHER = 0xc0de02n
export const THIRD = 0xc0de03n

export const BLOCK: BlockEnv = {
  coinbase: COINBASE,
  number: 1n,
  timestamp: 1000n,
  gasLimit: 30_000_000n,
  prevRandao: 0n,
  difficulty: 0n,
  baseFee: 0n,
  blobBaseFee: 1n,
  chainId: 1n,
  blockHash: () => 0n,
}

export function account(code = '0x', o: { balance?: bigint; nonce?: bigint; storage?: [bigint, bigint][] } = {}): PlainAccount {
  return { nonce: o.nonce ?? 0n, balance: o.balance ?? 0n, code: hexToBytes(code), storage: new Map(o.storage ?? []) }
}

export function transaction(over: Partial<EvmTransaction> = {}): EvmTransaction {
  return {
    type: 2,
    sender: SENDER,
    to: CONTRACT,
    nonce: 0n,
    gasLimit: 1_000_000n,
    value: 0n,
    data: new Uint8Array(),
    gasPrice: 0n,
    maxFeePerGas: 0n,
    maxPriorityFeePerGas: 0n,
    accessList: [],
    maxFeePerBlobGas: 0n,
    blobHashes: [],
    authorizations: [],
    ...over,
  }
}

export interface TracedRun<R> {
  outcome: TxOutcome
  result: R
  evm: Evm
}

/** `accounts` plus a funded sender; the transaction traced as a call (no fee) unless `asTransaction`. */
export function traced<R>(
  accounts: [bigint, PlainAccount][],
  tracer: TxTracer<R>,
  over: Partial<EvmTransaction> = {},
  o: { fork?: Fork; asTransaction?: boolean; context?: TraceContext; block?: Partial<BlockEnv> } = {},
): TracedRun<R> {
  const withSender: [bigint, PlainAccount][] = accounts.some(([a]) => a === SENDER)
    ? accounts
    : [[SENDER, account('0x', { balance: 10n ** 24n })], ...accounts]
  const evm = new Evm({ fork: o.fork ?? Fork.osaka, block: { ...BLOCK, ...o.block }, state: new WorldState(new MapStateSource(withSender)) })
  const mode = o.asTransaction === true ? {} : { mode: { call: true as const } }
  const { outcome, result } = traceTransaction(evm, transaction(over), tracer, { maxBlobsPerBlock: 6 }, { ...mode, context: o.context })
  return { outcome, result, evm }
}
