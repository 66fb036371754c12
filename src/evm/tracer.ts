import type { CallResult, Frame, Message } from './frame.js'
import type { Log } from './state.js'

// Hooks for tracers. The interpreter tests one local per opcode when no tracer is set: nothing else is paid.

export interface EvmTracer {
  /** Before each opcode, with the frame's pc, stack and gas as they are before it runs. */
  onStep?(frame: Frame, op: number): void
  /** A call frame (or a transaction's message) starts. */
  onEnter?(msg: Message): void
  onExit?(msg: Message, result: CallResult): void
  /** A LOG opcode's log, as it is added (a revert of its frame drops it from the state later). */
  onLog?(log: Log, msg: Message): void
}
