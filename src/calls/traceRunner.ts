import { Evm } from '../evm/interpreter.js'
import { WorldState } from '../evm/state.js'
import { applyTransaction } from '../evm/transaction.js'
import { HeaderView } from '../store/headerView.js'
import { CallTracer } from '../tracers/callTracer.js'
import { PrestateTracer } from '../tracers/prestateTracer.js'
import { StructLogger } from '../tracers/structLogger.js'
import { traceTransaction, type TxTracer } from '../tracers/txTracer.js'
import { bytesToHex } from '../util/hex.js'
import { applyBlockStart } from '../vm/blockStart.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { storedTransactions } from '../vm/storedTransactions.js'
import type { CallInput } from './callInput.js'
import { gasLimitOf, prepareCall } from './callRunner.js'
import type { TraceOptions } from './traceOptions.js'

// debug_traceTransaction, debug_traceBlockBy* and debug_traceCall on Sponge's EVM: a stored block re-executed from its
// parent's state (its start-of-block system calls, then its transactions up to the traced one), or a call prepared as
// eth_call prepares it, with geth's tracer listening (src/tracers): the struct logger (the default), callTracer or
// prestateTracer.

/**
 * One transaction's trace: the struct logger's reply as JSON text in chunks (spliced into the reply as they are), or
 * the other tracers' result objects.
 */
export type TraceAnswer = { json: Uint8Array[] } | { value: unknown }

/** A block's traces, each with its transaction's hash. */
export type BlockTraces = { txHash: string; trace: TraceAnswer }[]

function tracerFor(opts: TraceOptions): TxTracer {
  if (opts.tracer === 'callTracer') return new CallTracer({ onlyTopCall: opts.onlyTopCall === true, withLog: opts.withLog === true })
  if (opts.tracer === 'prestateTracer') return new PrestateTracer({ diffMode: opts.diffMode === true })
  return new StructLogger({
    disableStack: opts.disableStack === true,
    disableStorage: opts.disableStorage === true,
    enableMemory: opts.enableMemory === true,
    enableReturnData: opts.enableReturnData === true,
  })
}

function answerOf(opts: TraceOptions, result: unknown): TraceAnswer {
  return opts.tracer === undefined ? { json: result as Uint8Array[] } : { value: result }
}

/** debug_traceCall: the call run once with the tracer; null when the block is not stored. */
export function traceCall(config: EvmConfig, input: CallInput, opts: TraceOptions, deadline = 0): TraceAnswer | null {
  const call = prepareCall(config, input, deadline)
  if (call === null) return null
  call.tx.gasLimit = gasLimitOf(input)
  const { result } = traceTransaction(call.evm, call.tx, tracerFor(opts), call.ctx.limits, { mode: { call: true } })
  return answerOf(opts, result)
}

/**
 * The traces of a stored block's transactions (all, or the one at `only`), each with its hash; undefined when the
 * block or its parent is not stored.
 */
export function traceBlock(config: EvmConfig, blockHash: Uint8Array, opts: TraceOptions, only?: number, deadline = 0): BlockTraces | undefined {
  const header = config.header(blockHash)
  if (header === undefined) return undefined
  const store = config.store
  const parent = HeaderView.read(store, header.parentHash)
  if (parent === undefined) return undefined
  const ctx = config.blockContext(header, blockHash)
  const txs = storedTransactions(store, blockHash)
  if (txs === undefined) return undefined
  const state = new WorldState(config.stateAt(parent.stateRoot))
  const evm = new Evm({ fork: ctx.fork, block: ctx.env, state, deadline, scratch: config.scratch })
  applyBlockStart(evm, header)
  const out: BlockTraces = []
  let logIndex = 0
  for (const [i, { hash, tx }] of txs.entries()) {
    if (only !== undefined && i > only) break
    if (only === undefined || only === i) {
      const { outcome, result } = traceTransaction(evm, tx, tracerFor(opts), ctx.limits, { context: { logIndex } })
      out.push({ txHash: bytesToHex(hash), trace: answerOf(opts, result) })
      logIndex += outcome.logs.length
    } else {
      logIndex += applyTransaction(evm, tx, ctx.limits).logs.length
      state.endTransaction()
    }
  }
  return out
}
