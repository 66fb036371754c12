import type { EVMResult, InterpreterStep } from '@ethereumjs/evm'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex } from '../util/hex.js'
import { MAX_CAPTURED_BYTES, MAX_STRUCT_LOGS, type TraceOptions, TraceTooLargeError, type Tracer, type TxOutcome, word } from './tracer.js'

/** geth's struct logger: one entry per executed opcode. */
export class StructLogger implements Tracer {
  private readonly logs: Record<string, unknown>[] = []
  private readonly storage = new Map<string, Map<string, string>>()
  private captured = 0
  private last: Record<string, unknown>[] = []

  constructor(private readonly opts: TraceOptions) {}

  async step(s: InterpreterStep): Promise<void> {
    if (this.logs.length >= MAX_STRUCT_LOGS) throw new TraceTooLargeError(`trace exceeds ${MAX_STRUCT_LOGS} steps`)
    const log: Record<string, unknown> = {
      pc: s.pc,
      op: s.opcode.name,
      gas: Number(s.gasLeft),
      gasCost: Number(s.opcode.dynamicFee ?? BigInt(s.opcode.fee)),
      depth: s.depth + 1,
    }
    if (s.gasRefund > 0n) log.refund = Number(s.gasRefund)
    if (this.opts.disableStack !== true) log.stack = s.stack.map((v) => `0x${v.toString(16)}`)
    if (this.opts.enableMemory === true) {
      this.captured += s.memory.length * 2
      if (this.captured > MAX_CAPTURED_BYTES) throw new TraceTooLargeError('trace memory capture exceeds its bound')
      const words: string[] = []
      for (let i = 0; i < s.memory.length; i += 32) words.push(Buffer.from(s.memory.subarray(i, i + 32)).toString('hex'))
      log.memory = words
    }
    if (this.opts.disableStorage !== true && (s.opcode.name === 'SLOAD' || s.opcode.name === 'SSTORE') && s.stack.length >= 1) {
      const address = s.address.toString()
      const slots = this.storage.get(address) ?? new Map<string, string>()
      this.storage.set(address, slots)
      const key = s.stack[s.stack.length - 1]!
      const keyBytes = Buffer.from(key.toString(16).padStart(64, '0'), 'hex')
      if (s.opcode.name === 'SSTORE' && s.stack.length >= 2) {
        slots.set(word(keyBytes), s.stack[s.stack.length - 2]!.toString(16).padStart(64, '0'))
      } else {
        slots.set(word(keyBytes), word(await s.stateManager.getStorage(s.address, keyBytes)))
      }
      log.storage = Object.fromEntries(slots)
    }
    this.last[s.depth] = log
    this.logs.push(log)
  }

  beforeMessage(): void {}

  /** The failing opcode of a frame carries the frame's error, as geth reports it. */
  afterMessage(r: EVMResult): void {
    const e = r.execResult.exceptionError
    if (e === undefined) return
    const depth = this.last.length - 1
    const log = this.last[depth]
    if (log !== undefined && e.error !== 'revert') log.error = e.error
    this.last.length = Math.max(0, depth)
  }

  result(_tx: TypedTransaction, after: TxOutcome): unknown {
    const exec = after.execResult
    return {
      gas: Number(after.totalGasSpent),
      failed: exec.exceptionError !== undefined,
      returnValue: bytesToHex(exec.returnValue),
      structLogs: this.logs,
    }
  }
}
