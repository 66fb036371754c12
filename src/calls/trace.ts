import type { Block } from '@ethereumjs/block'
import type { EVMResult, InterpreterStep, Message } from '@ethereumjs/evm'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { StateManagerInterface } from '@ethereumjs/common'
import { Address } from '@ethereumjs/util'
import { type AfterTxEvent, type VM, runBlock, runTx } from '@ethereumjs/vm'
import type { ChainSpec } from '../chain/spec.js'
import { readBlock, readHeader } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import type { OverlayTrieDB } from '../trie/trieDb.js'
import { bytesToHex } from '../util/hex.js'
import type { AncestorView } from '../exec/ancestors.js'
import { processorApplies } from '../exec/blockProcessor.js'
import { createStoreVm } from '../exec/storeVm.js'
import { applyStartOfBlockSystemWrites } from '../exec/systemCalls.js'

// debug_traceTransaction / debug_traceBlockBy*: the block re-executed from its parent's state in a worker, with a
// tracer listening while the traced transactions run: geth's struct logger (the default) or its callTracer.

export interface TraceOptions {
  tracer?: 'callTracer' | 'prestateTracer'
  disableStack?: boolean
  disableStorage?: boolean
  enableMemory?: boolean
  onlyTopCall?: boolean
  withLog?: boolean
  diffMode?: boolean
}

/** A trace may not hold more than this many struct logs, nor capture more memory than this: the memory bound. */
const MAX_STRUCT_LOGS = 500_000
const MAX_CAPTURED_BYTES = 256 * 1024 * 1024

export class TraceTooLargeError extends Error {
  override readonly name = 'TraceTooLargeError'
}

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

const word = (b: Uint8Array) => Buffer.from(b).toString('hex').padStart(64, '0')

/** geth's struct logger: one entry per executed opcode. */
class StructLogger implements Tracer {
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
const q = (v: bigint) => `0x${v.toString(16)}`

/** geth's callTracer: the tree of calls, with their gas, input, output, errors (and logs with withLog). */
class CallTracer implements Tracer {
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
      ;(frame.logs ??= []).push({ address: s.address.toString(), topics, data: bytesToHex(padded), position: q(BigInt(frame.calls?.length ?? 0)) })
    }
  }

  beforeMessage(m: Message): void {
    const type = this.stack.length === 0 ? (m.to === undefined ? 'CREATE' : 'CALL') : (this.pendingOp ?? 'CALL')
    this.pendingOp = undefined
    const frame: Frame = {
      type,
      from: m.caller.toString(),
      ...(m.to === undefined ? {} : { to: m.to.toString() }),
      ...(type === 'STATICCALL' ? {} : { value: q(m.value) }),
      gas: q(m.gasLimit),
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
    frame.gasUsed = q(exec.executionGasUsed)
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
    root.gas = q(tx.gasLimit)
    root.gasUsed = q(after.totalGasSpent)
    return root
  }
}

/** Attaches a fresh tracer to a VM's EVM events until `detach` is called; errors a listener meets are kept. */
export function attachTracer(vm: VM, opts: TraceOptions): { tracer: Tracer; detach: () => void; failure: () => unknown } {
  const tracer = tracerFor(opts)
  let failure: unknown
  const guard = async (f: () => Promise<void> | void, resolve?: () => void) => {
    try {
      await f()
    } catch (e) {
      failure ??= e
    }
    resolve?.()
  }
  const onStep = (s: InterpreterStep, resolve?: () => void) => void guard(() => tracer.step(s), resolve)
  const onBefore = (m: Message, resolve?: () => void) => void guard(() => tracer.beforeMessage(m), resolve)
  const onAfter = (r: EVMResult, resolve?: () => void) => void guard(() => tracer.afterMessage(r), resolve)
  const events = vm.evm.events!
  events.on('step', onStep)
  events.on('beforeMessage', onBefore)
  events.on('afterMessage', onAfter)
  return {
    tracer,
    failure: () => failure,
    detach: () => {
      events.off('step', onStep)
      events.off('beforeMessage', onBefore)
      events.off('afterMessage', onAfter)
    },
  }
}

interface AccountState {
  balance: string
  nonce: number
  code?: string
  storage?: Record<string, string>
}

/** Opcodes that touch the account whose address is on the stack at this depth from the top. */
const TOUCHES: Record<string, number> = {
  BALANCE: 1, EXTCODESIZE: 1, EXTCODECOPY: 1, EXTCODEHASH: 1, SELFDESTRUCT: 1,
  CALL: 2, CALLCODE: 2, DELEGATECALL: 2, STATICCALL: 2,
}

/**
 * geth's prestateTracer: every account the transaction touches as it was before (balance, nonce, code, the storage
 * slots it touched); with diffMode, {pre, post} of what changed only.
 */
class PrestateTracer implements Tracer {
  private readonly pre = new Map<string, AccountState>()
  private readonly created = new Set<string>()

  constructor(private readonly opts: TraceOptions) {}

  private async touch(state: StateManagerInterface, address: Address): Promise<AccountState> {
    const key = address.toString()
    let a = this.pre.get(key)
    if (a === undefined) {
      const account = await state.getAccount(address)
      const code = account === undefined ? new Uint8Array() : await state.getCode(address)
      a = { balance: q(account?.balance ?? 0n), nonce: Number(account?.nonce ?? 0n), ...(code.length > 0 ? { code: bytesToHex(code) } : {}) }
      this.pre.set(key, a)
    }
    return a
  }

  async start(tx: TypedTransaction, coinbase: Address, state: StateManagerInterface): Promise<void> {
    await this.touch(state, tx.getSenderAddress())
    if (tx.to !== undefined) await this.touch(state, tx.to)
    await this.touch(state, coinbase)
  }

  async step(s: InterpreterStep): Promise<void> {
    const name = s.opcode.name
    const st = s.stack
    const at = TOUCHES[name]
    if (at !== undefined && st.length >= at) {
      const raw = st[st.length - at]!.toString(16).padStart(40, '0').slice(-40)
      await this.touch(s.stateManager, new Address(Buffer.from(raw, 'hex')))
    } else if ((name === 'SLOAD' || name === 'SSTORE') && st.length >= 1) {
      const a = await this.touch(s.stateManager, s.address)
      const slot = `0x${st[st.length - 1]!.toString(16).padStart(64, '0')}`
      a.storage ??= {}
      if (a.storage[slot] === undefined) {
        a.storage[slot] = `0x${word(await s.stateManager.getStorage(s.address, Buffer.from(slot.slice(2), 'hex')))}`
      }
    }
  }

  beforeMessage(): void {}

  afterMessage(r: EVMResult): void {
    // Created during the transaction: it had no prior state.
    if (r.createdAddress !== undefined && !this.pre.has(r.createdAddress.toString())) {
      this.created.add(r.createdAddress.toString())
      this.pre.set(r.createdAddress.toString(), { balance: '0x0', nonce: 0 })
    }
  }

  async result(_tx: TypedTransaction, _after: TxOutcome, state: StateManagerInterface): Promise<unknown> {
    if (this.opts.diffMode !== true) return Object.fromEntries(this.pre)
    const pre: Record<string, AccountState> = {}
    const post: Record<string, Partial<AccountState>> = {}
    for (const [key, before] of this.pre) {
      const address = new Address(Buffer.from(key.slice(2), 'hex'))
      const account = await state.getAccount(address)
      const after: Partial<AccountState> = {}
      let modified = false
      const balance = q(account?.balance ?? 0n)
      const nonce = Number(account?.nonce ?? 0n)
      const codeBytes = account === undefined ? new Uint8Array() : await state.getCode(address)
      const code = codeBytes.length > 0 ? bytesToHex(codeBytes) : undefined
      if (balance !== before.balance) { after.balance = balance; modified = true }
      if (nonce !== before.nonce) { after.nonce = nonce; modified = true }
      if (code !== before.code && code !== undefined) { after.code = code; modified = true }
      const keptPre: Record<string, string> = {}
      for (const [slot, value] of Object.entries(before.storage ?? {})) {
        const now = `0x${word(await state.getStorage(address, Buffer.from(slot.slice(2), 'hex')))}`
        if (now === value) continue
        modified = true
        if (BigInt(value) !== 0n) keptPre[slot] = value
        if (BigInt(now) !== 0n) (after.storage ??= {})[slot] = now
      }
      if (!modified) continue
      const { storage: _s, ...fields } = before
      if (!this.created.has(key)) pre[key] = { ...fields, ...(Object.keys(keptPre).length > 0 ? { storage: keptPre } : {}) }
      post[key] = after
    }
    return { pre, post }
  }
}

function tracerFor(opts: TraceOptions): Tracer {
  if (opts.tracer === 'callTracer') return new CallTracer(opts)
  if (opts.tracer === 'prestateTracer') return new PrestateTracer(opts)
  return new StructLogger(opts)
}

/** Re-executes stored blocks with tracers on; one per worker, created on the first trace. */
export class TraceRunner {
  private constructor(
    private readonly spec: ChainSpec,
    private readonly store: ChainStore,
    private readonly trieDb: OverlayTrieDB,
    private readonly sm: MerkleStateManager,
    private readonly vm: VM,
    private readonly ancestors: AncestorView,
  ) {}

  static async create(spec: ChainSpec, store: ChainStore): Promise<TraceRunner> {
    const { trieDb, state, vm, ancestors } = await createStoreVm(spec, store)
    return new TraceRunner(spec, store, trieDb, state, vm, ancestors)
  }

  /**
   * The traces of a block's transactions (all, or the one at `only`), each as `{ txHash, result }`; undefined when
   * the block or its parent is not stored.
   */
  async traceBlock(blockHash: Uint8Array, opts: TraceOptions, only?: number): Promise<{ txHash: string; result: unknown }[] | undefined> {
    const block = readBlock(this.spec, this.store, blockHash)
    if (block === undefined) return undefined
    const parent = readHeader(this.spec, this.store, block.header.parentHash)
    if (parent === undefined) return undefined
    this.sm.clearCaches()
    this.trieDb.pending.clear()
    this.ancestors.advance(parent.hash(), parent.number, parent.parentHash)
    this.vm.common.setHardforkBy({ blockNumber: block.header.number, timestamp: block.header.timestamp })
    await this.sm.setStateRoot(parent.stateRoot, true)
    const out: { txHash: string; result: unknown }[] = []
    let index = -1
    let attached: ReturnType<typeof attachTracer> | undefined
    let failure: unknown
    const onBeforeTx = (tx: TypedTransaction, resolve?: () => void) => {
      index++
      if (only === undefined || only === index) {
        attached = attachTracer(this.vm, opts)
        void (attached.tracer.start?.(tx, block.header.coinbase, this.vm.stateManager) ?? Promise.resolve()).then(
          () => resolve?.(),
          (e: unknown) => {
            failure ??= e
            resolve?.()
          },
        )
        return
      }
      resolve?.()
    }
    const onAfterTx = (after: AfterTxEvent, resolve?: () => void) => {
      const current = attached
      attached = undefined
      if (current === undefined) return resolve?.()
      current.detach()
      failure ??= current.failure()
      const tx = block.transactions[index]!
      void Promise.resolve(current.tracer.result(tx, after, this.vm.stateManager)).then(
        (result) => {
          out.push({ txHash: bytesToHex(tx.hash()), result })
          resolve?.()
        },
        (e: unknown) => {
          failure ??= e
          resolve?.()
        },
      )
    }
    this.vm.events.on('beforeTx', onBeforeTx)
    this.vm.events.on('afterTx', onAfterTx)
    try {
      if (processorApplies(this.vm)) await this.replayTransactions(block as Block, only)
      else await runBlock(this.vm, { block: block as Block, skipHeaderValidation: true, skipBlockValidation: true, generate: true, setHardfork: true })
    } finally {
      attached?.detach()
      this.vm.events.off('beforeTx', onBeforeTx)
      this.vm.events.off('afterTx', onAfterTx)
      this.trieDb.pending.clear()
    }
    if (failure !== undefined) throw failure
    return out
  }

  /**
   * A post-merge block's start-of-block writes and its transactions up to the traced one, in one checkpoint that is
   * thrown away: what the traces see, without runBlock's state root, receipts trie and withdrawals, which no trace
   * reads (they were most of a one-transaction block's trace).
   */
  private async replayTransactions(block: Block, only: number | undefined): Promise<void> {
    const journal = this.vm.evm.journal
    await journal.checkpoint()
    try {
      await applyStartOfBlockSystemWrites(this.vm, block.header)
      let blockGasUsed = 0n
      for (const [i, tx] of block.transactions.entries()) {
        if (only !== undefined && i > only) break
        blockGasUsed += (await runTx(this.vm, { tx, block, blockGasUsed })).totalGasSpent
      }
    } finally {
      await journal.revert()
    }
  }
}

