import { Fork } from '../chain/evmFork.js'
import { delegationTarget } from '../evm/code.js'
import { CallKind, type CallResult, type Frame, type Message, Status } from '../evm/frame.js'
import type { Evm } from '../evm/interpreter.js'
import { OPCODE_NAMES, Op } from '../evm/opcodeNames.js'
import { opTable } from '../evm/opcodes.js'
import type { WorldState } from '../evm/state.js'
import type { EvmTransaction, TxOutcome } from '../evm/transaction.js'
import { bytesToHex } from '../util/hex.js'
import { AsciiBuffer } from './asciiBuffer.js'
import { TraceTooLargeError } from './errors.js'
import { wordHex } from './format.js'
import { errorOnStep, haltedStepCost, haltsBeforeStep } from './haltedStep.js'
import { StackText } from './stackText.js'
import type { TxTracer } from './txTracer.js'

// geth's struct logger (its default tracer): one entry per executed opcode, as the spec'd legacy JSON of
// eth/tracers/logger (memory words and storage 0x-prefixed since geth 1.17.3). A step's cost is known only once it
// has run, so each entry is finished by the next event of its frame: the frame's next step (the gas between the two),
// a callee entered (the gas the frame has left then; a create's callee gas is not the step's, as in geth), or the
// frame's end. One entry is open at a time: a step, then maybe a callee, then the next step.

export interface StructLoggerOptions {
  disableStack?: boolean | undefined
  disableStorage?: boolean | undefined
  enableMemory?: boolean | undefined
  enableReturnData?: boolean | undefined
}

/** One step as the JSON shows it (what `result`'s text holds; keys left out are not set). */
export interface StructLog {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  error?: string
  stack?: string[]
  returnData?: string
  memory?: string[]
  storage?: Record<string, string>
  refund?: number
}

/** What `result`'s text holds: geth's ExecutionResult. */
export interface StructLoggerResult {
  /** The gas the receipt shows. */
  gas: number
  failed: boolean
  /** The output, the revert data of a revert, nothing after an exceptional halt; a create's deployed code. */
  returnValue: string
  structLogs: StructLog[]
}

/** A trace may not hold more than this many struct logs, nor capture more memory than this (hex text, bytes). */
export const MAX_STRUCT_LOGS = 500_000
export const MAX_CAPTURED_BYTES = 256 * 1024 * 1024

/** The slots a contract touched so far (geth's logger keeps them per contract and prints them all at each SLOAD/SSTORE). */
interface TouchedStorage {
  /** Slots in ascending order: geth prints a map, whose keys Go sorts. */
  slots: bigint[]
  text: Map<bigint, { key: string; value: string; raw: bigint }>
}

/** Each opcode's name with the JSON around it, written once per step. */
const OP_TEXT = OPCODE_NAMES.map((name) => `,"op":"${name}","gas":`)

/**
 * geth's struct logger. `result` is the reply as UTF-8 JSON text in chunks (StructLoggerResult's shape, to splice
 * into a reply as they are): entries are written as they finish, so a trace holds bytes, not an object per step, and
 * its chunks can be transferred across the worker hop rather than cloned.
 */
export class StructLogger implements TxTracer<Uint8Array[]> {
  private readonly withStack: boolean
  private readonly withStorage: boolean
  private readonly withMemory: boolean
  private readonly withReturnData: boolean
  private evm: Evm | undefined
  private state: WorldState | undefined
  private staticGas: Int32Array = opTable(Fork.osaka).gas
  private captured = 0
  private readonly storage = new Map<bigint, TouchedStorage>()
  private readonly stackTexts: StackText[] = []

  /** Finished entries, comma-separated; the open entry's head (up to its cost) is written here too. */
  private readonly out = new AsciiBuffer()
  /** The open entry's text after its depth and error, up to its refund: what it showed before it ran. */
  private readonly tail = new AsciiBuffer(1 << 12)
  private count = 0

  /** Whether an entry's cost is not known yet; its frame, pc, opcode, depth, gas before it and refund. */
  private open = false
  private openFrame: Frame | undefined = undefined
  private openPc = 0
  private openOp = 0
  private openDepth = 0
  private openGas = 0
  private openRefund = 0
  private refundAfter = false
  /** The frame of each call frame's caller (undefined for the transaction's), as entered. */
  private readonly callers: (Frame | undefined)[] = []
  /** The caller a callee last returned to, with the gas and refund it resumed with. */
  private resumed: Frame | undefined = undefined
  private resumedGas = 0
  private resumedRefund = 0

  constructor(options: StructLoggerOptions = {}) {
    this.withStack = options.disableStack !== true
    this.withStorage = options.disableStorage !== true
    this.withMemory = options.enableMemory === true
    this.withReturnData = options.enableReturnData === true
  }

  start(_tx: EvmTransaction, evm: Evm): void {
    this.evm = evm
    this.state = evm.state
    this.staticGas = opTable(evm.fork).gas
  }

  onStep(f: Frame, op: number): void {
    const gas = gasOf(f.gas, f.gasBase)
    if (this.open) this.close(this.openGas - gas, undefined)
    this.begin(f, f.pc, op, gas, this.state!.refund)
    this.openFrame = f
  }

  onEnter(msg: Message): void {
    if (!this.open) {
      // The transaction's own frame: no caller.
      this.callers.push(undefined)
      return
    }
    // The step that made this call or create: what it charged, up to the gas the frame has left now.
    const f = this.openFrame!
    let cost = this.openGas - gasOf(f.gas, f.gasBase)
    if (msg.kind === CallKind.create || msg.kind === CallKind.create2) cost -= gasOf(msg.gas, msg.gasBase)
    this.close(cost, undefined)
    this.callers.push(f)
  }

  onExit(msg: Message, r: CallResult): void {
    if (this.open) {
      const f = this.openFrame!
      if (r.status !== Status.error) this.close(this.openGas - gasOf(f.gas, f.gasBase), undefined)
      else if (f.pc === this.openPc) this.closeHalted(this.openOp, r)
      else {
        // Halted on an opcode the step hook never saw (haltsBeforeStep), after the open entry ran to completion.
        const cost = Math.max(this.staticGas[this.openOp]!, 0)
        const refund = this.openRefund
        this.close(cost, undefined)
        this.haltedAt(f, this.openGas - cost, refund, r)
      }
    } else if (r.status === Status.error && haltsBeforeStep(r.halt)) {
      // Halted before the step hook with no step of its own open: right after a callee returned, or on its first opcode.
      const f = this.resumed
      if (f?.msg === msg) this.haltedAt(f, this.resumedGas, this.resumedRefund, r)
      else this.haltedFirst(msg, r)
    }
    const caller = this.callers.pop()
    if (caller !== undefined) {
      this.resumed = caller
      this.resumedGas = gasOf(caller.gas, caller.gasBase) + gasOf(r.gasLeft, r.gasBase)
      this.resumedRefund = this.state!.refund
    }
  }

  result(outcome: TxOutcome): Uint8Array[] {
    if (this.open) this.close(0, undefined)
    let output = outcome.output
    if (outcome.status === Status.error) output = new Uint8Array(0)
    else if (outcome.status === Status.success && outcome.created !== undefined) {
      // A create returns the code it deployed (the interpreter's result carries none).
      const state = this.state!
      output = state.codeOf(state.get(outcome.created))
    }
    const head = `{"gas":${outcome.gasUsed},"failed":${outcome.status !== Status.success},"returnValue":"${bytesToHex(output)}","structLogs":[`
    return [Buffer.from(head, 'latin1'), ...this.out.parts(), Buffer.from(']}', 'latin1')]
  }

  // --- entries

  /** Writes a step's head, up to its cost, and starts its tail: within the bound, or TraceTooLargeError. */
  private head(pc: number, op: number, gas: number, depth: number, refund: number): void {
    if (this.count >= MAX_STRUCT_LOGS) throw new TraceTooLargeError(`trace exceeds ${MAX_STRUCT_LOGS} steps`)
    const out = this.out
    if (this.count > 0) out.byte(0x2c)
    this.count++
    out.text('{"pc":')
    out.int(pc)
    out.text(OP_TEXT[op]!)
    out.int(gas)
    out.text(',"gasCost":')
    this.tail.clear()
    this.open = true
    this.openPc = pc
    this.openOp = op
    this.openDepth = depth
    this.openGas = gas
    this.openRefund = refund
    // geth shows the refund as its gas functions leave it, and SSTORE's (SELFDESTRUCT's before London) change it:
    // theirs is known once the step has run.
    this.refundAfter = op === Op.SSTORE || (op === Op.SELFDESTRUCT && this.evm!.fork < Fork.london)
  }

  /** Writes a step's head and what it shows before it runs; it stays open until its cost is known. */
  private begin(f: Frame, pc: number, op: number, gas: number, refund: number): void {
    this.head(pc, op, gas, f.msg.depth + 1, refund)
    const tail = this.tail
    if (this.withStack) this.stackOf(f)
    if (this.withReturnData && f.returnData.length > 0) {
      tail.text(',"returnData":"0x')
      tail.hex(f.returnData, 0, f.returnData.length)
      tail.byte(0x22)
    }
    if (this.withMemory && f.memory.size > 0) this.memoryOf(f)
    if (this.withStorage && (op === Op.SLOAD || op === Op.SSTORE)) this.storageOf(f, op)
  }

  /** Finishes the open entry: its cost, depth, error, what it showed, its refund. */
  private close(cost: number, error: string | undefined): void {
    const out = this.out
    out.int(cost)
    out.text(',"depth":')
    out.int(this.openDepth)
    if (error !== undefined) {
      out.text(',"error":')
      out.jsonString(error)
    }
    out.append(this.tail)
    const refund = this.refundAfter ? this.state!.refund : this.openRefund
    if (refund !== 0) {
      out.text(',"refund":')
      out.int(refund)
    }
    out.byte(0x7d)
    this.open = false
  }

  /** Finishes the open entry as the step its frame halted on: geth's cost for it, and its error where geth gives one. */
  private closeHalted(op: number, r: CallResult): void {
    this.close(haltedStepCost(op, this.openGas, this.staticGas[op]!, r.halt), errorOnStep(r.halt, op) ? r.error : undefined)
  }

  /**
   * A step at the frame's pc that the step hook did not see, with the gas and refund it had: the previous step's static
   * cost is exact for most opcodes before such a halt (jumps, pushes), the static part of it for the rest.
   */
  private haltedAt(f: Frame, gas: number, refund: number, r: CallResult): void {
    const op = f.pc < f.code.bytes.length ? f.code.bytes[f.pc]! : 0
    this.begin(f, f.pc, op, gas, refund)
    this.closeHalted(op, r)
  }

  /** A frame that halted on its first opcode, before the step hook: pc 0, the gas it came with, an empty stack. */
  private haltedFirst(msg: Message, r: CallResult): void {
    const code = this.codeOf(msg)
    const op = code.length > 0 ? code[0]! : 0
    this.head(0, op, gasOf(msg.gas, msg.gasBase), msg.depth + 1, this.state!.refund)
    if (this.withStack) this.tail.text(',"stack":[]')
    this.closeHalted(op, r)
  }

  /** The code a message runs: a create's init code, else its code address's (through an EIP-7702 delegation). */
  private codeOf(msg: Message): Uint8Array {
    if (msg.kind === CallKind.create || msg.kind === CallKind.create2) return msg.input
    const state = this.state!
    const code = state.codeOf(state.get(msg.codeAddress))
    const target = this.evm!.fork >= Fork.prague ? delegationTarget(code) : undefined
    return target === undefined ? code : state.codeOf(state.get(target))
  }

  // --- what a step shows, written to the tail

  private stackOf(f: Frame): void {
    const depth = f.msg.depth
    let cache = this.stackTexts[depth]
    if (cache === undefined) {
      cache = new StackText()
      this.stackTexts[depth] = cache
    }
    const length = cache.update(f.stack, f.sp)
    const tail = this.tail
    tail.text(',"stack":[')
    tail.bytes(cache.text, 0, length)
    tail.byte(0x5d)
  }

  private memoryOf(f: Frame): void {
    const size = f.memory.size
    // Counted as the hex text it becomes, as the bound was always counted.
    this.captured += size * 2
    if (this.captured > MAX_CAPTURED_BYTES) throw new TraceTooLargeError('trace memory capture exceeds its bound')
    const tail = this.tail
    const buf = f.memory.buf
    tail.text(',"memory":[')
    for (let at = 0; at < size; at += 32) {
      tail.text(at === 0 ? '"0x' : ',"0x')
      tail.hex(buf, at, at + 32)
      tail.byte(0x22)
    }
    tail.byte(0x5d)
  }

  /** The contract's touched slots after this SLOAD (the value it reads) or SSTORE (the value it writes). */
  private storageOf(f: Frame, op: number): void {
    const st = f.stack
    const sp = f.sp
    if (sp < (op === Op.SLOAD ? 1 : 2)) return
    const slot = st[sp - 1]!
    const value = op === Op.SLOAD ? this.state!.getStorage(f.account, slot) : st[sp - 2]!
    const address = f.msg.to
    let touched = this.storage.get(address)
    if (touched === undefined) {
      touched = { slots: [], text: new Map() }
      this.storage.set(address, touched)
    }
    const known = touched.text.get(slot)
    if (known === undefined) {
      insertSorted(touched.slots, slot)
      touched.text.set(slot, { key: wordHex(slot), value: wordHex(value), raw: value })
    } else if (known.raw !== value) {
      known.raw = value
      known.value = wordHex(value)
    }
    const tail = this.tail
    tail.text(',"storage":{')
    let first = true
    for (const s of touched.slots) {
      const t = touched.text.get(s)!
      if (!first) tail.byte(0x2c)
      first = false
      tail.quoted(t.key)
      tail.byte(0x3a)
      tail.quoted(t.value)
    }
    tail.byte(0x7d)
  }
}

/** Gas as one number: exact below 2^53, which is all a real transaction has (wideGas.ts). */
function gasOf(gas: number, base: bigint): number {
  return base === 0n ? gas : Number(base) + gas
}

function insertSorted(sorted: bigint[], v: bigint): void {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! < v) lo = mid + 1
    else hi = mid
  }
  sorted.splice(lo, 0, v)
}
