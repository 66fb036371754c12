import { CallKind, type CallResult, type Frame, type Message, Status } from '../evm/frame.js'
import type { Log } from '../evm/state.js'
import type { EvmTracer } from '../evm/tracer.js'
import { ADDRESS_MASK, wordToBytes } from '../evm/words.js'

// eth_simulateV1's logs as geth's simulator collects them (internal/ethapi/logtracer.go): each call frame gathers the
// logs made in it, a frame that fails drops its own, and the numbering runs across the block as logs are made — so a
// dropped log still takes its number. With traceTransfers, every ether transfer is a log of its own among them: an
// ERC-20 Transfer from 0xeeee…eeee (ERC-7528) for the value of a call or creation (not a DELEGATECALL's or CALLCODE's)
// and for the balance a SELFDESTRUCT moves.

/** A log with its number in the block. */
export interface NumberedLog {
  log: Log
  index: number
}

const TRANSFER_ADDRESS = 0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeen
/** keccak-256 of Transfer(address,address,uint256). */
const TRANSFER_TOPIC = 0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3efn
const SELFDESTRUCT = 0xff

/** One block's log tracer: set as the EVM's tracer while each call runs, `reset` before it, `logs` after. */
export class SimLogTracer implements EvmTracer {
  /** The open frames' logs, the call's own first. */
  private frames: NumberedLog[][] = []
  private count = 0
  /** How the call's own frame ended (its gas left gives geth's peak gas use). */
  callEnd: CallResult | undefined
  /** A SELFDESTRUCT's transfer: taken when its frame ends well (geth reports it from the opcode, after its checks). */
  private destruct: { frame: Frame; from: bigint; to: bigint; value: bigint } | undefined
  readonly onStep: ((frame: Frame, op: number) => void) | undefined

  constructor(private readonly traceTransfers: boolean) {
    this.onStep = traceTransfers ? (frame, op) => this.step(frame, op) : undefined
  }

  /** Before each call: its logs start empty; the numbering goes on. */
  reset(): void {
    this.frames = []
    this.destruct = undefined
    this.callEnd = undefined
  }

  /** The call's logs, once it has run: none if it failed. */
  logs(): NumberedLog[] {
    return this.frames[0] ?? []
  }

  onEnter(msg: Message): void {
    this.frames.push([])
    if (this.traceTransfers && msg.value > 0n && msg.kind !== CallKind.delegatecall && msg.kind !== CallKind.callcode) {
      this.transfer(msg.caller, msg.to, msg.value)
    }
  }

  onExit(msg: Message, result: CallResult): void {
    const ok = result.status === Status.success
    const d = this.destruct
    if (d !== undefined && d.frame.msg === msg) {
      this.destruct = undefined
      if (ok) this.transfer(d.from, d.to, d.value)
    }
    if (msg.depth === 0) {
      this.callEnd = result
      if (!ok) this.frames[0] = []
      return
    }
    if (this.frames.length <= 1) return
    const frame = this.frames.pop()!
    if (ok) this.frames[this.frames.length - 1]!.push(...frame)
  }

  onLog(log: Log): void {
    this.capture(log)
  }

  private step(frame: Frame, op: number): void {
    if (op !== SELFDESTRUCT) return
    const value = frame.account.balance
    if (value > 0n) this.destruct = { frame, from: frame.msg.to, to: frame.stack[frame.sp - 1]! & ADDRESS_MASK, value }
  }

  private transfer(from: bigint, to: bigint, value: bigint): void {
    this.capture({ address: TRANSFER_ADDRESS, topics: [TRANSFER_TOPIC, from, to], data: wordToBytes(value) })
  }

  private capture(log: Log): void {
    this.frames[this.frames.length - 1]?.push({ log, index: this.count })
    this.count++
  }
}
