import { CallKind, type CallResult, type Frame, type Message, Status } from '../evm/frame.js'
import type { Evm } from '../evm/interpreter.js'
import { Op } from '../evm/opcodeNames.js'
import type { Log, WorldState } from '../evm/state.js'
import type { EvmTransaction, TxOutcome } from '../evm/transaction.js'
import { ADDRESS_MASK } from '../evm/words.js'
import { bytesToHex, toQuantity } from '../util/hex.js'
import { addressHex, wordHex } from './format.js'
import { revertReason } from './revertReason.js'
import type { TraceContext, TxTracer } from './txTracer.js'

// geth's callTracer (eth/tracers/native/call.go): the tree of call frames with their gas, input, output and error,
// and with `withLog` the logs each frame emitted where it emitted them. It listens to frames entering and leaving and
// to logs, so it costs nothing per opcode but the look at each opcode for a SELFDESTRUCT, which geth reports as a
// frame of its own and the interpreter has no frame hook for.

export interface CallTracerOptions {
  onlyTopCall?: boolean | undefined
  withLog?: boolean | undefined
}

export interface CallLog {
  address: string
  topics: string[]
  data: string
  /** The log's index in the block. */
  index: string
  /** How many calls the frame had made when it emitted the log. */
  position: string
}

/** One frame, with geth's keys in geth's order. */
export interface CallFrame {
  from: string
  gas: string
  gasUsed: string
  to?: string
  input: string
  output?: string
  error?: string
  revertReason?: string
  calls?: CallFrame[]
  logs?: CallLog[]
  value?: string
  type: string
}

const TYPES: Readonly<Record<CallKind, string>> = {
  [CallKind.call]: 'CALL',
  [CallKind.callcode]: 'CALLCODE',
  [CallKind.delegatecall]: 'DELEGATECALL',
  [CallKind.staticcall]: 'STATICCALL',
  [CallKind.create]: 'CREATE',
  [CallKind.create2]: 'CREATE2',
}

/** A frame while it runs: what the JSON needs, kept raw until the result. */
interface Open {
  msg: Message
  calls: Built[]
  logs: Log[]
  logIndexes: number[]
  logPositions: number[]
}

/** A finished frame, still to be written out. */
interface Built {
  frame: CallFrame
  /** Logs are dropped from a frame that failed and from everything under it (geth's clearFailedLogs). */
  failed: boolean
  calls: Built[]
  logs: CallLog[]
}

export class CallTracer implements TxTracer<CallFrame> {
  private readonly onlyTopCall: boolean
  private readonly withLog: boolean
  private state: WorldState | undefined
  private gasLimit = 0n
  private logIndex = 0
  private readonly stack: Open[] = []
  private top: Built | undefined
  /** A SELFDESTRUCT seen at a step, reported as its frame's last call if the frame ends well. */
  private selfDestruct: { msg: Message; beneficiary: bigint; balance: bigint } | undefined

  constructor(options: CallTracerOptions = {}) {
    this.onlyTopCall = options.onlyTopCall === true
    this.withLog = options.withLog === true
  }

  start(tx: EvmTransaction, evm: Evm, context?: TraceContext): void {
    this.state = evm.state
    this.gasLimit = tx.gasLimit
    this.logIndex = context?.logIndex ?? 0
  }

  onStep(f: Frame, op: number): void {
    if (op !== Op.SELFDESTRUCT) return
    if (f.sp < 1) return
    this.selfDestruct = { msg: f.msg, beneficiary: f.stack[f.sp - 1]! & ADDRESS_MASK, balance: f.account.balance }
  }

  onEnter(msg: Message): void {
    if (this.onlyTopCall && msg.depth > 0) return
    this.stack.push({ msg, calls: [], logs: [], logIndexes: [], logPositions: [] })
  }

  onLog(log: Log, msg: Message): void {
    if (!this.withLog || (this.onlyTopCall && msg.depth > 0)) return
    const open = this.stack[this.stack.length - 1]!
    open.logs.push(log)
    // The state has just added it: its place among the transaction's logs, after the block's earlier ones.
    open.logIndexes.push(this.logIndex + this.state!.logs.length - 1)
    open.logPositions.push(open.calls.length)
  }

  onExit(msg: Message, r: CallResult): void {
    if (this.onlyTopCall && msg.depth > 0) return
    const open = this.stack.pop()!
    const sd = this.selfDestruct
    if (sd !== undefined && sd.msg === msg) {
      this.selfDestruct = undefined
      if (r.status === Status.success && !this.onlyTopCall) open.calls.push(selfDestructFrame(sd.msg.to, sd.beneficiary, sd.balance))
    }
    const built = this.build(open, r)
    const parent = this.stack[this.stack.length - 1]
    if (parent === undefined) this.top = built
    else parent.calls.push(built)
  }

  result(outcome: TxOutcome): CallFrame {
    const top = this.top
    if (top === undefined) throw new Error('callTracer: no frame was traced')
    // The top frame counts the whole transaction, as geth's: its gas limit and the gas the receipt shows.
    top.frame.gas = toQuantity(this.gasLimit)
    top.frame.gasUsed = toQuantity(outcome.gasUsed)
    return write(top, false)
  }

  private build(open: Open, r: CallResult): Built {
    const msg = open.msg
    const create = msg.kind === CallKind.create || msg.kind === CallKind.create2
    const frame: CallFrame = {
      from: addressHex(msg.kind === CallKind.delegatecall ? msg.to : msg.caller),
      gas: toQuantity(gasOf(msg.gas, msg.gasBase)),
      gasUsed: toQuantity(gasOf(msg.gas, msg.gasBase) - gasOf(r.gasLeft, r.gasBase)),
      to: addressHex(create ? msg.to : msg.codeAddress),
      input: bytesToHex(msg.input),
      type: TYPES[msg.kind],
    }
    const failed = r.status !== Status.success
    if (!failed) {
      // A create's output is the code it deployed (the interpreter's result carries none).
      const output = create ? this.state!.codeOf(this.state!.get(msg.to)) : r.output
      if (output.length > 0) frame.output = bytesToHex(output)
    } else {
      // A revert, or geth's words for a halt or for a call refused before it ran (depth, balance).
      const reverted = r.halt === undefined
      frame.error = reverted ? 'execution reverted' : r.error!
      if (create) frame.to = undefined
      if (reverted && r.output.length > 0) {
        frame.output = bytesToHex(r.output)
        const reason = revertReason(r.output)
        if (reason !== undefined) frame.revertReason = reason
      }
    }
    const logs: CallLog[] = open.logs.map((log, i) => ({
      address: addressHex(log.address),
      topics: log.topics.map(wordHex),
      data: bytesToHex(log.data),
      index: toQuantity(open.logIndexes[i]!),
      position: toQuantity(open.logPositions[i]!),
    }))
    // A DELEGATECALL shows the value it inherits; a STATICCALL none (geth passes it nil).
    if (msg.kind !== CallKind.staticcall) frame.value = toQuantity(msg.kind === CallKind.delegatecall ? msg.apparentValue : msg.value)
    return { frame, failed, calls: open.calls, logs }
  }
}

/** geth's frame for a SELFDESTRUCT: the balance sent to the beneficiary, no gas. */
function selfDestructFrame(from: bigint, beneficiary: bigint, balance: bigint): Built {
  const frame: CallFrame = {
    from: addressHex(from),
    gas: '0x0',
    gasUsed: '0x0',
    to: addressHex(beneficiary),
    input: '0x',
    value: toQuantity(balance),
    type: 'SELFDESTRUCT',
  }
  return { frame, failed: false, calls: [], logs: [] }
}

/** The frame with its calls and (unless it or a caller failed) its logs, keys in geth's order. */
function write(b: Built, parentFailed: boolean): CallFrame {
  const failed = b.failed || parentFailed
  const f = b.frame
  return {
    from: f.from,
    gas: f.gas,
    gasUsed: f.gasUsed,
    ...(f.to === undefined ? {} : { to: f.to }),
    input: f.input,
    ...(f.output === undefined ? {} : { output: f.output }),
    ...(f.error === undefined ? {} : { error: f.error }),
    ...(f.revertReason === undefined ? {} : { revertReason: f.revertReason }),
    ...(b.calls.length === 0 ? {} : { calls: b.calls.map((c) => write(c, failed)) }),
    ...(failed || b.logs.length === 0 ? {} : { logs: b.logs }),
    ...(f.value === undefined ? {} : { value: f.value }),
    type: f.type,
  }
}

function gasOf(gas: number, base: bigint): bigint {
  return base === 0n ? BigInt(gas) : base + BigInt(gas)
}
