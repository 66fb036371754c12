import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { TypedTransaction } from '@ethereumjs/tx'
import { bytesToHex, toQuantity } from '../util/hex.js'
import type { TraceOptions, Tracer, TxOutcome } from './tracer.js'

interface Frame {
  type: string
  from: string
  to?: string
  value?: string
  gas: string
  gasUsed?: string
  input: string
  output?: string
  error?: string
  revertReason?: string
  calls?: Frame[]
  logs?: { address: string; topics: string[]; data: string; position: string }[]
}

const CALL_OPS = new Set(['CALL', 'CALLCODE', 'DELEGATECALL', 'STATICCALL', 'CREATE', 'CREATE2'])

/** geth's callTracer: the tree of calls, with their gas, input, output, errors (and logs with withLog). */
export class CallTracer implements Tracer {
  private readonly stack: Frame[] = []
  private root: Frame | undefined
  /** The opcode that opens the next frame (CALL, STATICCALL, …), seen on the caller's last step. */
  private pendingOp: string | undefined

  constructor(private readonly opts: TraceOptions) {}

  async step(s: InterpreterStep): Promise<void> {
    if (CALL_OPS.has(s.opcode.name)) this.pendingOp = s.opcode.name
    if (this.opts.withLog === true && s.opcode.name.startsWith('LOG')) {
      const frame = this.stack[this.stack.length - 1]
      if (frame === undefined || (this.opts.onlyTopCall === true && this.stack.length > 1)) return
      const n = Number(s.opcode.name.slice(3))
      const st = s.stack
      const offset = Number(st[st.length - 1]!)
      const size = Number(st[st.length - 2]!)
      const topics: string[] = []
      for (let i = 0; i < n; i++) topics.push(`0x${st[st.length - 3 - i]!.toString(16).padStart(64, '0')}`)
      const data = s.memory.subarray(offset, offset + size)
      const padded = new Uint8Array(size)
      padded.set(data)
      ;(frame.logs ??= []).push({
        address: s.address.toString(),
        topics,
        data: bytesToHex(padded),
        position: toQuantity(BigInt(frame.calls?.length ?? 0)),
      })
    }
  }

  beforeMessage(m: Message): void {
    const type = this.stack.length === 0 ? (m.to === undefined ? 'CREATE' : 'CALL') : (this.pendingOp ?? 'CALL')
    this.pendingOp = undefined
    const frame: Frame = {
      type,
      from: m.caller.toString(),
      ...(m.to === undefined ? {} : { to: m.to.toString() }),
      ...(type === 'STATICCALL' ? {} : { value: toQuantity(m.value) }),
      gas: toQuantity(m.gasLimit),
      input: bytesToHex(m.data),
    }
    if (this.stack.length === 0) this.root = frame
    else if (this.opts.onlyTopCall !== true) (this.stack[this.stack.length - 1]!.calls ??= []).push(frame)
    this.stack.push(frame)
  }

  afterMessage(r: EVMResult): void {
    const frame = this.stack.pop()
    if (frame === undefined) return
    const exec = r.execResult
    frame.gasUsed = toQuantity(exec.executionGasUsed)
    if (r.createdAddress !== undefined) frame.to = r.createdAddress.toString()
    if (exec.returnValue.length > 0 || exec.exceptionError?.error === 'revert') frame.output = bytesToHex(exec.returnValue)
    if (exec.exceptionError !== undefined) {
      frame.error = exec.exceptionError.error === 'revert' ? 'execution reverted' : exec.exceptionError.error
    }
  }

  result(tx: TypedTransaction, after: TxOutcome): unknown {
    const root = this.root
    if (root === undefined) return {}
    // The top frame counts the whole transaction, as geth's: its gas limit and the gas the receipt shows.
    root.gas = toQuantity(tx.gasLimit)
    root.gasUsed = toQuantity(after.totalGasSpent)
    return root
  }
}
