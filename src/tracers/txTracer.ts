import type { Evm } from '../evm/interpreter.js'
import type { EvmTracer } from '../evm/tracer.js'
import { applyTransaction, type BlockLimits, type CallMode, type EvmTransaction, type TxOutcome } from '../evm/transaction.js'

// What every tracer of debug_trace* and eth_createAccessList is to a runner: the EVM's hooks, plus the two facts the
// hooks cannot see — the transaction as it starts (its gas limit, sender, recipient, the block's coinbase, the state
// before the fee is bought) and its outcome (the receipt's gas, the output, whether it failed).

/** Where the traced transaction sits in its block. */
export interface TraceContext {
  /** Logs the block's earlier transactions left: the index of this transaction's first log (geth's log `index`). */
  logIndex?: number
}

export interface TxTracer<R = unknown> extends EvmTracer {
  /**
   * Before `applyTransaction`: the transaction and the EVM it runs on, whose state is as the transaction finds it
   * (nothing bought or warmed yet).
   */
  start(tx: EvmTransaction, evm: Evm, context?: TraceContext): void
  /** After `applyTransaction` and the state's `endTransaction`: the reply for this transaction. */
  result(outcome: TxOutcome): R
}

/**
 * Runs `tx` on `evm` with `tracer` listening and ends the transaction on the state: its outcome and the tracer's
 * result. A refused transaction (TxRejectedError, the state untouched) or an abandoned one (EvmAbortedError) throws
 * with the tracer detached; `evm.tracer` is left as it was found.
 */
export function traceTransaction<R>(
  evm: Evm,
  tx: EvmTransaction,
  tracer: TxTracer<R>,
  limits: BlockLimits,
  options: { mode?: CallMode; context?: TraceContext } = {},
): { outcome: TxOutcome; result: R } {
  const before = evm.tracer
  tracer.start(tx, evm, options.context)
  evm.tracer = tracer
  let outcome: TxOutcome
  try {
    outcome = applyTransaction(evm, tx, limits, options.mode)
  } finally {
    evm.tracer = before
  }
  evm.state.endTransaction()
  return { outcome, result: tracer.result(outcome) }
}
