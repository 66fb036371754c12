import { keccak256 } from '../crypto/keccak.js'

// The world state as the interpreter sees it: accounts and storage read synchronously from a source (caches, the flat
// table, LMDB's synchronous reads), written into an overlay, every change journaled so a call frame's revert is popping
// entries. The accounts a transaction touched are the ones its journal names (as geth's dirties): at the transaction's
// end those that are empty or destroyed go, the others' storage becomes the next transaction's committed values.

export const EMPTY_CODE = new Uint8Array(0)
const RIPEMD160_ADDRESS = 3n
export const EMPTY_CODE_HASH = keccak256(EMPTY_CODE)

export interface AccountData {
  nonce: bigint
  balance: bigint
  /** keccak-256 of the code; EMPTY_CODE_HASH for none. */
  codeHash: Uint8Array
}

/** Where state comes from. Every call is synchronous: the interpreter never waits. */
export interface StateSource {
  account(address: bigint): AccountData | undefined
  code(codeHash: Uint8Array, address: bigint): Uint8Array
  storage(address: bigint, slot: bigint): bigint
  /** Whether the account has any storage (EIP-7610: creating over it collides). */
  hasStorage(address: bigint): boolean
}

/**
 * Reads of the state below the interpreter's caches: each account and slot the first time a transaction's state asks
 * the source for it, with the value found — what a prestate tracer or an access-list builder records. Set on the
 * WorldState (`state.observer`); unset, a cache miss pays one test.
 */
export interface StateObserver {
  onAccountRead?(address: bigint, found: AccountData | undefined): void
  onStorageRead?(address: bigint, slot: bigint, value: bigint): void
}

export class Account {
  exists = false
  nonce = 0n
  balance = 0n
  codeHash: Uint8Array = EMPTY_CODE_HASH
  /** Undefined until first needed. */
  code: Uint8Array | undefined = undefined
  /** This transaction's writes. */
  readonly storage = new Map<bigint, bigint>()
  /** Values as of the transaction's start (the source's, or earlier transactions' writes). */
  readonly committed = new Map<bigint, bigint>()
  /** Created in this block over nothing: the source's storage is not read. */
  fresh = false
  /** The source's storage was wiped (a destroyed account): nothing read from it. */
  wiped = false

  constructor(readonly address: bigint) {}

  isEmpty(): boolean {
    return this.nonce === 0n && this.balance === 0n && this.codeHash === EMPTY_CODE_HASH
  }
}

enum Entry {
  balance,
  nonce,
  code,
  storage,
  transient,
  touch,
  create,
  warmAddress,
  warmSlot,
  refund,
  log,
  destruct,
}

interface JournalEntry {
  kind: Entry
  account: Account | undefined
  key: bigint
  prev: unknown
}

export interface Log {
  address: bigint
  topics: bigint[]
  data: Uint8Array
}

/** An account's state at the end of a block's changes, for the commit: undefined for deleted. */
export interface AccountChange {
  address: bigint
  account: { nonce: bigint; balance: bigint; codeHash: Uint8Array; code: Uint8Array | undefined } | undefined
  /** Storage written (0n is a deletion); after `storageWiped`, the whole storage. */
  storage: Map<bigint, bigint>
  storageWiped: boolean
}

export class WorldState {
  private readonly accounts = new Map<bigint, Account>()
  private journal: JournalEntry[] = []
  private readonly warmAddresses = new Set<bigint>()
  private readonly warmSlots = new Map<bigint, Set<bigint>>()
  private readonly transient = new Map<bigint, Map<bigint, bigint>>()
  private readonly destructed = new Set<Account>()
  /** Accounts created in this transaction (EIP-6780: only these can be destroyed). */
  private readonly created = new Set<Account>()
  /** Accounts changed since the block began, for `changes()`. */
  private readonly blockDirty = new Set<Account>()
  /** Touches of RIPEMD-160's address, which no revert undoes (below). */
  private readonly stickyTouches = new Set<Account>()
  /** The account at RIPEMD-160's address once read: touch() compares identities, not addresses. */
  private ripemd: Account | undefined = undefined
  refund = 0
  logs: Log[] = []
  observer: StateObserver | undefined = undefined
  /**
   * EIP-161 (Spurious Dragon on): the touched accounts that are empty are deleted at the transaction's end. Before it
   * they stay. The Evm that runs on this state sets it for its fork.
   */
  clearsEmptyAccounts = true

  constructor(readonly source: StateSource) {}

  get(address: bigint): Account {
    let a = this.accounts.get(address)
    if (a === undefined) {
      a = new Account(address)
      const d = this.source.account(address)
      this.observer?.onAccountRead?.(address, d)
      if (d !== undefined) {
        a.exists = true
        a.nonce = d.nonce
        a.balance = d.balance
        a.codeHash = sameAsEmpty(d.codeHash)
      }
      this.accounts.set(address, a)
      if (address === RIPEMD160_ADDRESS) this.ripemd = a
    }
    return a
  }

  codeOf(a: Account): Uint8Array {
    if (a.code === undefined) a.code = a.codeHash === EMPTY_CODE_HASH ? EMPTY_CODE : this.source.code(a.codeHash, a.address)
    return a.code
  }

  checkpoint(): number {
    return this.journal.length
  }

  revertTo(checkpoint: number): void {
    const j = this.journal
    while (j.length > checkpoint) this.undo(j.pop()!)
  }

  private record(kind: Entry, account: Account | undefined, key: bigint, prev: unknown): void {
    this.journal.push({ kind, account, key, prev })
  }

  private undo(e: JournalEntry): void {
    const a = e.account!
    switch (e.kind) {
      case Entry.balance:
        a.balance = e.prev as bigint
        break
      case Entry.nonce:
        a.nonce = e.prev as bigint
        break
      case Entry.code: {
        const [hash, code] = e.prev as [Uint8Array, Uint8Array | undefined]
        a.codeHash = hash
        a.code = code
        break
      }
      case Entry.storage:
        if (e.prev === undefined) a.storage.delete(e.key)
        else a.storage.set(e.key, e.prev as bigint)
        break
      case Entry.transient: {
        const m = this.transient.get(a.address)!
        if (e.prev === undefined) m.delete(e.key)
        else m.set(e.key, e.prev as bigint)
        break
      }
      case Entry.touch:
        break
      case Entry.create: {
        const p = e.prev as CreateUndo
        a.exists = p.exists
        a.fresh = p.fresh
        a.wiped = p.wiped
        a.storage.clear()
        for (const [k, v] of p.storage) a.storage.set(k, v)
        a.committed.clear()
        for (const [k, v] of p.committed) a.committed.set(k, v)
        if (!p.wasCreated) this.created.delete(a)
        break
      }
      case Entry.warmAddress:
        this.warmAddresses.delete(e.key)
        break
      case Entry.warmSlot:
        this.warmSlots.get(a.address)!.delete(e.key)
        break
      case Entry.refund:
        this.refund = e.prev as number
        break
      case Entry.log:
        this.logs.pop()
        break
      case Entry.destruct:
        this.destructed.delete(a)
        break
    }
  }

  // --- accounts

  /** Journals what a create (or an account's first coming into existence) changes, so a revert restores it. */
  private recordCreate(a: Account): void {
    this.record(Entry.create, a, 0n, {
      exists: a.exists,
      fresh: a.fresh,
      wiped: a.wiped,
      storage: new Map(a.storage),
      committed: new Map(a.committed),
      wasCreated: this.created.has(a),
    } satisfies CreateUndo)
  }

  private exist(a: Account): void {
    if (!a.exists) {
      this.recordCreate(a)
      a.exists = true
    }
  }

  touch(a: Account): void {
    this.record(Entry.touch, a, 0n, undefined)
    // Mainnet block 2,675,119 cleared the empty account at 0x03 (RIPEMD-160) though the call that touched it ran out of
    // gas: clients then kept that touch through the revert, and the rule stayed (geth's journal, execution-specs'
    // incorporate_child_on_error). Only a precompile's account can be touched, empty, in a frame that fails this way.
    if (a === this.ripemd) this.stickyTouches.add(a)
  }

  /** Brings an account into the state as it is (empty, if it did not exist): what a call did before EIP-161. */
  ensureExists(a: Account): void {
    this.exist(a)
  }

  setBalance(a: Account, balance: bigint): void {
    this.exist(a)
    this.record(Entry.balance, a, 0n, a.balance)
    a.balance = balance
  }

  addBalance(a: Account, amount: bigint): void {
    this.setBalance(a, a.balance + amount)
  }

  subBalance(a: Account, amount: bigint): void {
    this.setBalance(a, a.balance - amount)
  }

  setNonce(a: Account, nonce: bigint): void {
    this.exist(a)
    this.record(Entry.nonce, a, 0n, a.nonce)
    a.nonce = nonce
  }

  setCode(a: Account, code: Uint8Array, codeHash: Uint8Array = code.length === 0 ? EMPTY_CODE_HASH : keccak256(code)): void {
    this.exist(a)
    this.record(Entry.code, a, 0n, [a.codeHash, a.code])
    a.codeHash = sameAsEmpty(codeHash)
    a.code = code
  }

  /**
   * A contract about to be created at `a` (which has no code or nonce): its storage starts empty, whatever the source
   * holds, and this transaction may destroy it (EIP-6780).
   */
  createContract(a: Account): void {
    this.recordCreate(a)
    a.exists = true
    a.storage.clear()
    a.committed.clear()
    a.wiped = true
    this.created.add(a)
  }

  createdInTransaction(a: Account): boolean {
    return this.created.has(a)
  }

  /** Whether creating at `a` collides: a nonce, code or storage there (EIP-684, EIP-7610). */
  collides(a: Account): boolean {
    if (a.nonce !== 0n || a.codeHash !== EMPTY_CODE_HASH) return true
    if (a.storage.size > 0) for (const v of a.storage.values()) if (v !== 0n) return true
    if (a.wiped || a.fresh) return false
    return this.source.hasStorage(a.address)
  }

  isDestructed(a: Account): boolean {
    return this.destructed.has(a)
  }

  destruct(a: Account): void {
    if (this.destructed.has(a)) return
    this.record(Entry.destruct, a, 0n, undefined)
    this.destructed.add(a)
  }

  // --- storage

  committedStorage(a: Account, slot: bigint): bigint {
    let v = a.committed.get(slot)
    if (v === undefined) {
      if (a.wiped || a.fresh || !a.exists) v = 0n
      else {
        v = this.source.storage(a.address, slot)
        this.observer?.onStorageRead?.(a.address, slot, v)
      }
      a.committed.set(slot, v)
    }
    return v
  }

  getStorage(a: Account, slot: bigint): bigint {
    const v = a.storage.get(slot)
    return v !== undefined ? v : this.committedStorage(a, slot)
  }

  setStorage(a: Account, slot: bigint, value: bigint): void {
    this.record(Entry.storage, a, slot, a.storage.get(slot))
    a.storage.set(slot, value)
  }

  getTransient(address: bigint, slot: bigint): bigint {
    return this.transient.get(address)?.get(slot) ?? 0n
  }

  setTransient(a: Account, slot: bigint, value: bigint): void {
    let m = this.transient.get(a.address)
    if (m === undefined) {
      m = new Map()
      this.transient.set(a.address, m)
    }
    this.record(Entry.transient, a, slot, m.get(slot))
    m.set(slot, value)
  }

  // --- EIP-2929 access sets

  /** Marks the address warm; returns whether it was warm already. */
  warmAddress(address: bigint): boolean {
    if (this.warmAddresses.has(address)) return true
    this.warmAddresses.add(address)
    this.record(Entry.warmAddress, undefined, address, undefined)
    return false
  }

  isWarmAddress(address: bigint): boolean {
    return this.warmAddresses.has(address)
  }

  /** Marks the slot warm; returns whether it was warm already. */
  warmSlot(a: Account, slot: bigint): boolean {
    let s = this.warmSlots.get(a.address)
    if (s === undefined) {
      s = new Set()
      this.warmSlots.set(a.address, s)
    } else if (s.has(slot)) return true
    s.add(slot)
    this.record(Entry.warmSlot, a, slot, undefined)
    return false
  }

  // --- refunds and logs

  addRefund(n: number): void {
    this.record(Entry.refund, undefined, 0n, this.refund)
    this.refund += n
  }

  subRefund(n: number): void {
    this.record(Entry.refund, undefined, 0n, this.refund)
    this.refund -= n
  }

  log(log: Log): void {
    this.record(Entry.log, undefined, 0n, undefined)
    this.logs.push(log)
  }

  // --- transaction boundaries

  /**
   * Ends a transaction: destroyed accounts and touched empty ones are deleted (EIP-161), storage writes become the
   * committed values, and the transaction's sets are cleared. Returns the transaction's logs.
   */
  endTransaction(): Log[] {
    const touched = new Set<Account>()
    if (this.stickyTouches.size > 0) for (const a of this.stickyTouches) touched.add(a)
    // A warm slot or a transient write names its account only to undo itself: neither touches it (geth's
    // accessListAddSlotChange and transientStorageChange dirty nothing), so an empty account named in an access list
    // with storage keys stays.
    for (const e of this.journal) if (e.account !== undefined && e.kind !== Entry.warmSlot && e.kind !== Entry.transient) touched.add(e.account)
    const clears = this.clearsEmptyAccounts
    for (const a of touched) {
      this.blockDirty.add(a)
      if (this.destructed.has(a) || (clears && a.exists && a.isEmpty())) {
        a.exists = false
        a.nonce = 0n
        a.balance = 0n
        a.codeHash = EMPTY_CODE_HASH
        a.code = EMPTY_CODE
        a.storage.clear()
        a.committed.clear()
        a.wiped = true
        a.fresh = false
        continue
      }
      for (const [k, v] of a.storage) a.committed.set(k, v)
      a.storage.clear()
    }
    const logs = this.logs
    this.logs = []
    this.journal = []
    this.warmAddresses.clear()
    this.warmSlots.clear()
    this.transient.clear()
    this.destructed.clear()
    this.created.clear()
    if (this.stickyTouches.size > 0) this.stickyTouches.clear()
    this.refund = 0
    return logs
  }

  /**
   * Writes an account's fields between transactions, as a state override does (eth_call, eth_simulateV1): the values
   * become the committed ones and count among the block's changes. `storage` replaces the whole storage (geth's
   * `state`), `storageDiff` changes the slots it names. An account overridden comes into existence.
   */
  override(address: bigint, o: StateOverride): void {
    const a = this.get(address)
    a.exists = true
    if (o.balance !== undefined) a.balance = o.balance
    if (o.nonce !== undefined) a.nonce = o.nonce
    if (o.code !== undefined) {
      a.code = o.code
      a.codeHash = o.code.length === 0 ? EMPTY_CODE_HASH : keccak256(o.code)
    }
    if (o.storage !== undefined) {
      a.storage.clear()
      a.committed.clear()
      a.wiped = true
      for (const [k, v] of o.storage) a.committed.set(k, v)
    }
    if (o.storageDiff !== undefined) for (const [k, v] of o.storageDiff) a.committed.set(k, v)
    this.blockDirty.add(a)
  }

  /** Drops a transaction that was not applied (an invalid one): everything since the last `endTransaction`. */
  abortTransaction(): void {
    this.revertTo(0)
    if (this.stickyTouches.size > 0) this.stickyTouches.clear()
    this.endTransaction()
  }

  /** Every account changed since the state was made, as the commit needs it. Call after `endTransaction`. */
  changes(): AccountChange[] {
    const out: AccountChange[] = []
    for (const a of this.blockDirty) {
      const storage = new Map<bigint, bigint>()
      for (const [k, v] of a.committed) storage.set(k, v)
      out.push({
        address: a.address,
        account: a.exists ? { nonce: a.nonce, balance: a.balance, codeHash: a.codeHash, code: a.code } : undefined,
        storage,
        storageWiped: a.wiped,
      })
    }
    return out
  }
}

/** What a state override writes (WorldState.override). */
export interface StateOverride {
  balance?: bigint
  nonce?: bigint
  code?: Uint8Array
  /** The whole storage: every other slot reads zero. */
  storage?: ReadonlyMap<bigint, bigint>
  /** These slots only. */
  storageDiff?: ReadonlyMap<bigint, bigint>
}

interface CreateUndo {
  exists: boolean
  fresh: boolean
  wiped: boolean
  storage: Map<bigint, bigint>
  committed: Map<bigint, bigint>
  wasCreated: boolean
}

/** The empty code hash as the one shared array, so emptiness is an identity comparison. */
function sameAsEmpty(hash: Uint8Array): Uint8Array {
  if (hash === EMPTY_CODE_HASH) return hash
  for (let i = 0; i < 32; i++) if (hash[i] !== EMPTY_CODE_HASH[i]) return hash
  return EMPTY_CODE_HASH
}
