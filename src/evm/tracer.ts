import type { CallResult, Frame, Message } from './frame.js'

// Hooks for tracers. The interpreter tests one local per opcode when no tracer is set: nothing else is paid.

export interface EvmTracer {
  /** Before each opcode, with the frame's pc, stack and gas as they are before it runs. */
  onStep?(frame: Frame, op: number): void
  /** A call frame (or a transaction's message) starts. */
  onEnter?(msg: Message): void
  onExit?(msg: Message, result: CallResult): void
}
