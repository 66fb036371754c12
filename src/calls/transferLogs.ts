import type { EVMResult, InterpreterStep, Log, Message } from '@ethereumjs/evm'
import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'

// eth_simulateV1's traceTransfers: every ether transfer (a call's or creation's value, not a DELEGATECALL's, and a
// SELFDESTRUCT's balance) is reported as an ERC-20 Transfer log of 0xeeee…eeee, in order among the contract's own
// logs; a frame that fails takes its logs with it. Logs are numbered as they are seen, across the block, as geth's tracer numbers them.

const TRANSFER_ADDRESS = new Uint8Array(20).fill(0xee)
const TRANSFER_TOPIC = Buffer.from('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', 'hex')

export interface NumberedLog {
  log: Log
  index: number
}

const word = (bytes: Uint8Array): Uint8Array => setLengthLeft(bytes, 32)
const valueWord = (v: bigint): Uint8Array => setLengthLeft(bigIntToBytes(v), 32)
const ADDRESS_MASK = (1n << 160n) - 1n

/** Listens to a VM's EVM for one block's transactions; `take` hands over each transaction's logs when it ends. */
export class TransferLogTracer {
  private frames: NumberedLog[][] = []
  private count = 0
  /** A creation's transfer waits for its address (EthereumJS names it after the message starts). */
  private pendingCreate: { from: Uint8Array; value: bigint } | undefined

  private readonly onBefore = (m: Message, resolve?: () => void) => {
    this.frames.push([])
    if (!m.delegatecall && m.value > 0n) {
      if (m.to === undefined) this.pendingCreate = { from: m.caller.bytes, value: m.value }
      else this.transfer(m.caller.bytes, m.to.bytes, m.value)
    }
    resolve?.()
  }

  private readonly onNewContract = (c: { address: { bytes: Uint8Array } }, resolve?: () => void) => {
    if (this.pendingCreate !== undefined) {
      this.transfer(this.pendingCreate.from, c.address.bytes, this.pendingCreate.value)
      this.pendingCreate = undefined
    }
    resolve?.()
  }

  private readonly onStep = (s: InterpreterStep, resolve?: () => void) => {
    const name = s.opcode.name
    if (name.startsWith('LOG')) {
      const n = Number(name.slice(3))
      const st = s.stack
      const offset = Number(st[st.length - 1]!)
      const size = Number(st[st.length - 2]!)
      const topics: Uint8Array[] = []
      for (let i = 0; i < n; i++) topics.push(valueWord(st[st.length - 3 - i]!))
      const data = new Uint8Array(size)
      data.set(s.memory.subarray(offset, offset + size))
      this.capture([s.address.bytes, topics, data])
    } else if (name === 'SELFDESTRUCT' && s.account.balance > 0n) {
      // geth reports the balance moving to the beneficiary as a transfer (a frame of its own that cannot fail).
      // SELFDESTRUCT takes the low 20 bytes of its stack word.
      const beneficiary = setLengthLeft(bigIntToBytes(s.stack[s.stack.length - 1]! & ADDRESS_MASK), 20)
      this.transfer(s.address.bytes, beneficiary, s.account.balance)
    }
    resolve?.()
  }

  private readonly onAfter = (r: EVMResult, resolve?: () => void) => {
    const frame = this.frames.pop() ?? []
    const failed = r.execResult.exceptionError !== undefined
    if (this.frames.length > 0) {
      if (!failed) this.frames[this.frames.length - 1]!.push(...frame)
    } else {
      this.finished = failed ? [] : frame
    }
    resolve?.()
  }

  private finished: NumberedLog[] = []

  constructor(private readonly vm: VM) {
    const events = vm.evm.events!
    events.on('beforeMessage', this.onBefore)
    events.on('newContract', this.onNewContract)
    events.on('step', this.onStep)
    events.on('afterMessage', this.onAfter)
  }

  /** The logs of the transaction that just ran. */
  take(): NumberedLog[] {
    const out = this.finished
    this.finished = []
    this.frames = []
    return out
  }

  detach(): void {
    const events = this.vm.evm.events!
    events.off('beforeMessage', this.onBefore)
    events.off('newContract', this.onNewContract)
    events.off('step', this.onStep)
    events.off('afterMessage', this.onAfter)
  }

  private transfer(from: Uint8Array, to: Uint8Array, value: bigint): void {
    this.capture([TRANSFER_ADDRESS, [TRANSFER_TOPIC, word(from), word(to)], valueWord(value)])
  }

  private capture(log: Log): void {
    const frame = this.frames[this.frames.length - 1]
    if (frame !== undefined) frame.push({ log, index: this.count })
    this.count++
  }
}
