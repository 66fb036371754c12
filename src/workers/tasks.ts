import type { BuildInput, BuiltPayload } from '../engine/worker/payloadBuilder.js'
import type { PayloadStatus } from '../engine/worker/payloadImport.js'
import type { NewPayloadInput } from '../engine/worker/payloadBlock.js'
import type { CallOutcome } from '../calls/callInput.js'
import type { CallInput } from '../calls/callInput.js'
import type { EstimateOutcome } from '../calls/estimate.js'
import type { AccessListResult } from '../calls/accessList.js'
import type { SimulateInput, SimulateOutcome } from '../calls/simulate.js'
import type { TraceOptions } from '../calls/traceOptions.js'
import type { TraceAnswer } from '../calls/traceRunner.js'
import type { ValidatedTx } from '../txrules/txValidation.js'
import type { LogBudget, LogCriteria, LogScope, LogSliceResult } from '../logs/logQuery.js'
import type { StateAnswer, StateQuery } from '../vm/stateQuery.js'
import type { WireError } from '../util/errors.js'
import type { EvmThreadSettings } from '../evm/threadSettings.js'

// Messages between the serving thread and the worker pool. Plain structured-clone data only.

export interface WorkerInit extends EvmThreadSettings {
  datadir: string
  genesisJson: string
  /** A reader's lane (`sponge rpc`): the store is opened read-only. */
  readOnly?: boolean
  /**
   * The engine's lane: its workers make their block executor at start, not on their first payload (a public worker
   * makes one only if it is asked to build a block: testing_buildBlockV1).
   */
  executesBlocks?: boolean
  /**
   * An engine worker of a node with an Engine API: before it takes tasks, it builds and imports a few blocks of its
   * own on a throwaway chain, so that its first payloads run compiled (engine/worker/blockWarmUp.ts).
   */
  warmsBlocks?: boolean
  /** The lane's deadline board (deadlines.ts); the pool adds it. */
  deadlines?: SharedArrayBuffer
  /** The thread's name and nice (util/threadRole.ts: the public lanes' run above the engine's); the pool adds it. */
  role?: { name: string; nice?: number }
  /** Where the engine's workers add up each block's phases (util/blockPhases.ts), when the node keeps metrics. */
  blockPhases?: SharedArrayBuffer
}

/**
 * What a worker posts to the serving thread (parentPort) once it has loaded its modules and opened the store: from
 * then on it may be stopped. A thread stopped while it loads them can take the whole process down (nativeCalls.ts),
 * so a lane's close() waits for this.
 */
export interface WorkerStarted {
  started: number
}

export interface TaskMap {
  ping: { in: object; out: null }
  /** A full collection of the worker's heap, asked for when the node is quiet (node/settle.ts). */
  settle: { in: object; out: null }
  state: { in: { query: StateQuery }; out: StateAnswer }
  receipt: { in: { txHash: Uint8Array }; out: string | null }
  newPayload: { in: { input: NewPayloadInput }; out: PayloadStatus }
  build: { in: { input: BuildInput }; out: BuiltPayload }
  validateTx: { in: { raw: Uint8Array; headHash: Uint8Array }; out: ValidatedTx }
  call: { in: { input: CallInput; mode: 'call' }; out: CallOutcome | null }
  estimate: { in: { input: CallInput }; out: EstimateOutcome | null }
  accessList: { in: { input: CallInput }; out: AccessListResult | null }
  /** null when the block or its parent is not stored. */
  trace: { in: { blockHash: Uint8Array; opts: TraceOptions; only?: number }; out: { txHash: string; trace: TraceAnswer }[] | null }
  /** null when the block is not stored. */
  traceCall: { in: { input: CallInput; opts: TraceOptions }; out: TraceAnswer | null }
  simulate: { in: { input: SimulateInput }; out: SimulateOutcome }
  /** Helps an engine worker's newPayload: recovers senders into the shared slots (senderRecovery.ts). */
  recoverSenders: { in: { slots: SharedArrayBuffer; transactions: string[]; number: string; timestamp: string }; out: null }
  /** One slice of a log query (logQuery.ts): up to `budget`'s work, the rest left to another task. */
  logs: {
    in: { scope: LogScope; criteria: LogCriteria; maxResults: number; maxBytes: number; removed?: boolean; budget?: LogBudget }
    out: LogSliceResult
  }
}

export type TaskName = keyof TaskMap
export type SingleTask = { [K in TaskName]: { op: K } & TaskMap[K]['in'] }[TaskName]
/**
 * What a worker is sent: the calls that waited for it, answered in order with an outcome each; with deadlines
 * (Date.now() milliseconds, 0: none) when any has a time limit.
 */
export interface Batch {
  tasks: SingleTask[]
  deadlines?: number[]
  /** When the lane sent it (Date.now()), with deadlines: a worker not yet started then moves them by its start-up. */
  sentAt?: number
}

/**
 * A task's answer. Errors cross the worker boundary as data: a domain error whole (its class, kind and data survive,
 * and so its JSON-RPC code: workers/errors.ts), a passed deadline as such, anything else as the node's failure.
 */
export type TaskOutcome<T> =
  | { ok: true; value: T }
  | { ok: false; error: WireError }
  /** The call's deadline passed before it started or while it ran. */
  | { ok: false; timedOut: string }
  /** Not a domain error: a bug or a store failure, with the worker's stack. */
  | { ok: false; internal: { message: string; stack?: string } }
