import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { StateManagerInterface } from '@ethereumjs/common'
import type { Address } from '@ethereumjs/util'
import type { AfterTxEvent } from '@ethereumjs/vm'

// What every tracer of debug_trace* implements, its options, and the bounds a trace must stay within.

export type { TraceOptions } from './traceOptions.js'

/** A trace may not hold more than this many struct logs, nor capture more memory than this: the memory bound. */
export const MAX_STRUCT_LOGS = 500_000
export const MAX_CAPTURED_BYTES = 256 * 1024 * 1024

/** Thrown by a tracer past those bounds: a limit the client ran into (calls/errors.ts). */
export { TraceTooLargeError } from './errors.js'

export interface Tracer {
  /** Before the transaction touches anything (the prestate tracer reads its sender, recipient and coinbase). */
  start?(tx: TypedTransaction, coinbase: Address, state: StateManagerInterface): Promise<void>
  step(s: InterpreterStep): Promise<void>
  beforeMessage(m: Message): void
  afterMessage(r: EVMResult): void
  result(tx: TypedTransaction, after: TxOutcome, state: StateManagerInterface): Promise<unknown> | unknown
}

/** What a tracer needs of a finished transaction. */
export type TxOutcome = Pick<AfterTxEvent, 'totalGasSpent' | 'execResult'>

export const word = (b: Uint8Array) => Buffer.from(b).toString('hex').padStart(64, '0')
