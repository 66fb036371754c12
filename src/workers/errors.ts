import { BlockNotFoundError, StoreWriteError } from '../store/errors.js'
import { TxRejectedError, UnknownParentError } from '../exec/errors.js'
import { AccessListUnsettledError, OverrideError, SimulationError, TraceTooLargeError } from '../calls/errors.js'
import { DomainError, type RebuildableError, type WireError, fromWire } from '../util/errors.js'
import { formatGoDuration } from '../util/goDuration.js'

// The worker hop's side of the error model (util/errors.ts): which domain errors cross from a worker whole, and the
// lane's own errors.

/**
 * The domain errors a worker's task may throw that are the client's to hear: each crosses as its wire form and is
 * rebuilt on the serving thread as the same class, kind and data. Any other error is the node's failure
 * (StateUnavailableError, an InvalidBlockError that escaped its catch, a bug): it crosses as an internal error with
 * the worker's stack.
 */
const CROSSING: Readonly<Record<string, RebuildableError>> = {
  TxRejectedError,
  UnknownParentError,
  BlockNotFoundError,
  SimulationError,
  OverrideError,
  TraceTooLargeError,
  AccessListUnsettledError,
  // A block the engine lane executed or built but could not store (a full disk): the client and the operator hear
  // why, not an internal error.
  StoreWriteError,
}

/** The wire form of an error that crosses whole; undefined for the node's own failures. */
export function crossingError(e: unknown): WireError | undefined {
  return e instanceof DomainError && Object.hasOwn(CROSSING, e.name) ? e.toWire() : undefined
}

/** The serving thread's copy of an error a worker threw; undefined when its class does not cross. */
export function rebuiltError(w: WireError): DomainError | undefined {
  return fromWire(w, CROSSING)
}

/** The lane is full: the caller may retry later. */
export class PoolBusyError extends DomainError<'laneFull', { lane: string }> {
  override readonly name = 'PoolBusyError'
  constructor(lane: string) {
    super(`${lane} request queue is full, try again later`, 'laneFull', { lane })
  }
}

/** A task ran past its time limit (--rpc.evmtimeout): skipped, or stopped and its worker thread replaced. */
export class TaskTimeoutError extends DomainError<'timeout', { timeoutMs: number }> {
  override readonly name = 'TaskTimeoutError'
  constructor(timeoutMs: number) {
    super(`execution aborted (timeout = ${formatGoDuration(timeoutMs)})`, 'timeout', { timeoutMs })
  }
}

/**
 * A task failed in the worker for a reason of the node's (a bug, a store failure), or the worker died twice: not a
 * domain error, so the envelope answers -32603 and logs it; `stack` is the worker's.
 */
export class WorkerTaskError extends Error {
  override readonly name = 'WorkerTaskError'
  constructor(message: string, stack?: string) {
    super(message)
    if (stack !== undefined) this.stack = stack
  }
}
