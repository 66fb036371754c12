import { Fork } from '../chain/evmFork.js'
import { authority } from '../evm/authorization.js'
import { delegationTarget } from '../evm/code.js'
import type { CallResult, Frame, Message } from '../evm/frame.js'
import { createAddress, createAddress2, type Evm } from '../evm/interpreter.js'
import { Op } from '../evm/opcodeNames.js'
import { EMPTY_CODE_HASH, type WorldState } from '../evm/state.js'
import type { EvmTransaction } from '../evm/transaction.js'
import { ADDRESS_MASK } from '../evm/words.js'
import { bytesToHex, equalBytes, toQuantity } from '../util/hex.js'
import { addressHex, wordHex } from './format.js'
import { errorOnStep } from './haltedStep.js'
import type { TxTracer } from './txTracer.js'

// geth's prestateTracer (eth/tracers/native/prestate.go): every account the transaction touches, as it was when first
// touched — the sender, the recipient (or the address a creation makes), the coinbase, EIP-7702 authorities and
// delegates, and the addresses and slots opcodes name — and with `diffMode` what changed: `post` the new values,
// `pre` the old ones of those that changed. Accounts are read through the transaction's own state, as geth reads its
// StateDB, so a step sees the values the opcode is about to see.

export interface PrestateTracerOptions {
  diffMode?: boolean | undefined
  disableCode?: boolean | undefined
  disableStorage?: boolean | undefined
  /** Keep accounts that were empty (no balance, nonce or code) when first touched. geth refuses it with diffMode. */
  includeEmpty?: boolean | undefined
}

/** An account as geth prints it (each key left out when unset, a zero nonce too). */
export interface PrestateAccount {
  balance?: string
  code?: string
  codeHash?: string
  nonce?: number
  storage?: Record<string, string>
}

export type PrestateMap = Record<string, PrestateAccount>
export type PrestateResult = PrestateMap | { post: PrestateMap; pre: PrestateMap }

/** An account when first touched. */
interface Pre {
  balance: bigint
  nonce: bigint
  code: Uint8Array
  codeHash: Uint8Array
  /** Slots read or written, with their values when first touched; undefined with disableStorage. */
  storage: Map<bigint, bigint> | undefined
  /** No balance, nonce or code then: left out of the result unless includeEmpty. */
  empty: boolean
}

/** What one step added, undone if geth would not have seen the step (it failed before its OnOpcode). */
type Added = { account: bigint } | { slot: bigint; of: bigint } | { created: bigint } | { deleted: bigint }

export class PrestateTracer implements TxTracer<PrestateResult> {
  private readonly options: PrestateTracerOptions
  private evm: Evm | undefined
  private state: WorldState | undefined
  private readonly pre = new Map<bigint, Pre>()
  private readonly created = new Set<bigint>()
  private readonly deleted = new Set<bigint>()
  private readonly added: Added[] = []
  private stepMsg: Message | undefined
  private stepOp = 0

  constructor(options: PrestateTracerOptions = {}) {
    if (options.diffMode === true && options.includeEmpty === true) throw new Error('cannot use diffMode with includeEmpty')
    this.options = options
  }

  start(tx: EvmTransaction, evm: Evm): void {
    this.evm = evm
    const state = evm.state
    this.state = state
    let to: bigint
    if (tx.to === undefined) {
      to = createAddress(tx.sender, state.get(tx.sender).nonce)
      this.created.add(to)
    } else {
      to = tx.to
      this.lookupDelegate(to)
    }
    this.lookupAccount(tx.sender)
    this.lookupAccount(to)
    this.lookupAccount(evm.block.coinbase)
    // Authorities as they were before their authorizations apply (whether or not those turn out valid).
    for (const a of tx.authorizations) {
      const signer = authority(a)
      if (signer !== undefined) this.lookupAccount(signer)
    }
    this.added.length = 0
  }

  onStep(f: Frame, op: number): void {
    if (this.added.length > 0) this.added.length = 0
    this.stepMsg = f.msg
    this.stepOp = op
    const st = f.stack
    const sp = f.sp
    const self = f.msg.to
    switch (op) {
      case Op.SLOAD:
      case Op.SSTORE:
        if (sp >= 1) this.lookupStorage(f, st[sp - 1]!)
        return
      case Op.EXTCODECOPY:
      case Op.EXTCODEHASH:
      case Op.EXTCODESIZE:
      case Op.BALANCE:
        if (sp >= 1) this.lookupAccount(st[sp - 1]! & ADDRESS_MASK)
        return
      case Op.SELFDESTRUCT:
        if (sp < 1) return
        this.lookupAccount(st[sp - 1]! & ADDRESS_MASK)
        // Before Cancun the account always goes; from Cancun (EIP-6780) only one created in this transaction.
        if ((this.evm!.fork < Fork.cancun || this.created.has(self)) && !this.deleted.has(self)) {
          this.deleted.add(self)
          this.added.push({ deleted: self })
        }
        return
      case Op.CALL:
      case Op.CALLCODE:
      case Op.DELEGATECALL:
      case Op.STATICCALL:
        if (sp < 5) return
        this.lookupAccount(st[sp - 2]! & ADDRESS_MASK)
        this.lookupDelegate(st[sp - 2]! & ADDRESS_MASK)
        return
      case Op.CREATE:
        this.lookupCreated(createAddress(self, f.account.nonce))
        return
      case Op.CREATE2: {
        if (sp < 4) return
        const offset = st[sp - 2]!
        const size = st[sp - 3]!
        // Init code past what any gas could pay for: the step fails, and geth's copy of it refuses too.
        if (offset > 0xffffffffn || size > 0xffffffffn) return
        const init = paddedCopy(f.memory.buf, f.memory.size, Number(offset), Number(size))
        this.lookupCreated(createAddress2(self, st[sp - 4]!, init))
        return
      }
    }
  }

  onEnter(): void {
    if (this.added.length > 0) this.added.length = 0
  }

  onExit(msg: Message, r: CallResult): void {
    // The frame's last step failed before geth's OnOpcode (out of gas, a gas function's refusal): geth skipped it.
    if (this.added.length > 0 && this.stepMsg === msg && errorOnStep(r.halt, this.stepOp)) this.undoStep()
    if (this.added.length > 0) this.added.length = 0
  }

  result(): PrestateResult {
    const post: PrestateMap = {}
    if (this.options.diffMode === true) this.diff(post)
    const pre: PrestateMap = {}
    for (const [address, p] of sorted(this.pre)) {
      if (p.empty && this.options.includeEmpty !== true) continue
      pre[addressHex(address)] = this.printed(p)
    }
    return this.options.diffMode === true ? { post, pre } : pre
  }

  // --- what the transaction touched

  private lookupAccount(address: bigint): void {
    if (this.pre.has(address)) return
    const state = this.state!
    const a = state.get(address)
    const code = state.codeOf(a)
    const empty = a.nonce === 0n && code.length === 0 && a.balance === 0n
    const storage = this.options.disableStorage === true ? undefined : new Map<bigint, bigint>()
    this.pre.set(address, { balance: a.balance, nonce: a.nonce, code, codeHash: a.codeHash, storage, empty })
    this.added.push({ account: address })
  }

  /** From Prague, the account an EIP-7702 delegation at `address` points to. */
  private lookupDelegate(address: bigint): void {
    if (this.evm!.fork < Fork.prague) return
    const state = this.state!
    const target = delegationTarget(state.codeOf(state.get(address)))
    if (target !== undefined) this.lookupAccount(target)
  }

  private lookupCreated(address: bigint): void {
    this.lookupAccount(address)
    if (this.created.has(address)) return
    this.created.add(address)
    this.added.push({ created: address })
  }

  private lookupStorage(f: Frame, slot: bigint): void {
    if (this.options.disableStorage === true) return
    const address = f.msg.to
    this.lookupAccount(address)
    const storage = this.pre.get(address)!.storage!
    if (storage.has(slot)) return
    storage.set(slot, this.state!.getStorage(f.account, slot))
    this.added.push({ slot, of: address })
  }

  private undoStep(): void {
    for (const a of this.added) {
      if ('account' in a) this.pre.delete(a.account)
      else if ('slot' in a) this.pre.get(a.of)?.storage?.delete(a.slot)
      else if ('created' in a) this.created.delete(a.created)
      else this.deleted.delete(a.deleted)
    }
  }

  // --- the result

  /**
   * diffMode: each account's new values where they changed (into `post`); `pre` keeps only the accounts that changed,
   * and of their storage only the changed slots that held something. A destroyed account stays in `pre` whole.
   */
  private diff(post: PrestateMap): void {
    const state = this.state!
    for (const [address, p] of sorted(this.pre)) {
      if (this.deleted.has(address)) continue
      const a = state.get(address)
      const now: PrestateAccount = {}
      let modified = false
      if (a.balance !== p.balance) {
        now.balance = toQuantity(a.balance)
        modified = true
      }
      if (a.nonce !== p.nonce) {
        if (a.nonce !== 0n) now.nonce = Number(a.nonce)
        modified = true
      }
      // geth compares its StateDB's code hash, which is all zeros for an account that does not exist; the empty
      // hash is used here for one as for an empty account, so an account absent before and after is not "changed".
      if (a.codeHash !== p.codeHash && !equalBytes(a.codeHash, p.codeHash)) {
        now.codeHash = bytesToHex(a.codeHash)
        modified = true
      }
      if (this.options.disableCode !== true) {
        const code = state.codeOf(a)
        if (!equalBytes(code, p.code)) {
          now.code = bytesToHex(code)
          modified = true
        }
      }
      if (p.storage !== undefined) {
        const changed: Record<string, string> = {}
        for (const [slot, before] of sortedSlots(p.storage)) {
          const after = state.getStorage(a, slot)
          if (before === after || before === 0n) p.storage.delete(slot)
          if (before === after) continue
          modified = true
          if (after !== 0n) changed[wordHex(slot)] = wordHex(after)
        }
        if (Object.keys(changed).length > 0) now.storage = changed
      }
      if (modified) post[addressHex(address)] = reordered(now)
      else this.pre.delete(address)
    }
  }

  private printed(p: Pre): PrestateAccount {
    const out: PrestateAccount = { balance: toQuantity(p.balance) }
    if (p.code.length > 0 && this.options.disableCode !== true) out.code = bytesToHex(p.code)
    if (p.codeHash !== EMPTY_CODE_HASH) out.codeHash = bytesToHex(p.codeHash)
    if (p.nonce !== 0n) out.nonce = Number(p.nonce)
    if (p.storage !== undefined && p.storage.size > 0) {
      const storage: Record<string, string> = {}
      for (const [slot, value] of sortedSlots(p.storage)) storage[wordHex(slot)] = wordHex(value)
      out.storage = storage
    }
    return out
  }
}

/** geth's key order for an account. */
function reordered(a: PrestateAccount): PrestateAccount {
  const out: PrestateAccount = {}
  if (a.balance !== undefined) out.balance = a.balance
  if (a.code !== undefined) out.code = a.code
  if (a.codeHash !== undefined) out.codeHash = a.codeHash
  if (a.nonce !== undefined) out.nonce = a.nonce
  if (a.storage !== undefined) out.storage = a.storage
  return out
}

/** Go prints a map's keys sorted: addresses and slots of one width sort as numbers. */
function sorted<V>(m: Map<bigint, V>): [bigint, V][] {
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
}

const sortedSlots = (m: Map<bigint, bigint>) => sorted(m)

/** `size` bytes of memory from `offset`, zeros past its end (geth's GetMemoryCopyPadded). */
function paddedCopy(buf: Uint8Array, memSize: number, offset: number, size: number): Uint8Array {
  const out = new Uint8Array(size)
  if (offset < memSize) out.set(buf.subarray(offset, Math.min(memSize, offset + size)))
  return out
}
