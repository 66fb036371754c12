import type { AccountData } from '../evm/state.js'
import { equalBytes } from '../util/hex.js'
import { EMPTY_TRIE_ROOT, isEmptyTrie } from './accountCodec.js'
import type { CommittedAccount } from './blockCommit.js'
import type { StoredStateSource } from './stateSources.js'

// The state a chain of blocks runs on, kept warm from one block to its child: the accounts and slots the last
// KEEP_BLOCKS blocks read or wrote, as they are after the last, in front of the store's source at the same root. A
// block whose parent is the last block executed here then reads nothing it or its recent ancestors touched from
// LMDB (a payload's parent is not the flat table's state until forkchoice makes it the head, so those reads would be
// trie walks). What no recent block touched is let go after each block: the cache holds a few blocks' worth, so a
// node executing full blocks of fresh accounts for hours holds no more than after the first minute (it used to keep
// everything up to a million entries, ~1 GB). Any other parent starts the cache afresh; a block that fails leaves it
// at its parent, whose values it still holds.

/** Blocks an account (with its slots) stays after the last block that read or wrote it. */
const KEEP_BLOCKS = 3

/** An account as the cache knows it. */
interface Kept {
  /** Whether `data` was read or written: an account only slots were read of has not been. */
  loaded: boolean
  data: AccountData | undefined
  /** Undefined until asked for. */
  storageRoot: Uint8Array | undefined
  /** Slots read or written (a deletion is 0n). */
  slots: Map<bigint, bigint> | undefined
  /** Every slot is in `slots` (its storage was cleared since the base's state): a miss is zero. */
  whole: boolean
  /** The block (this cache's count) that last read or wrote it. */
  seen: number
}

export class WarmState implements StoredStateSource {
  private root: Uint8Array | undefined
  private base: StoredStateSource | undefined
  private readonly accounts = new Map<bigint, Kept>()
  /** Blocks advanced over since the cache was last emptied: the one being executed. */
  private block = 0

  /** This cache at `root`, in front of `base` (the store's state at `root`); emptied unless it was already there. */
  at(root: Uint8Array, base: StoredStateSource): StoredStateSource {
    if (this.root === undefined || !equalBytes(this.root, root)) {
      this.clear()
      this.root = root.slice()
    }
    this.base = base
    return this
  }

  /**
   * Moves the cache to the state a block committed on top of the one it is at, and lets go of the accounts no block
   * of the last KEEP_BLOCKS touched.
   */
  advance(root: Uint8Array, committed: readonly CommittedAccount[]): void {
    for (const { change, storageRoot } of committed) {
      const k = this.entry(change.address)
      const a = change.account
      k.loaded = true
      k.data = a === undefined ? undefined : { nonce: a.nonce, balance: a.balance, codeHash: a.codeHash }
      k.storageRoot = storageRoot
      if (a === undefined || change.storageWiped) {
        k.slots = undefined
        k.whole = true
      }
      if (a !== undefined && change.storage.size > 0) {
        const slots = (k.slots ??= new Map())
        for (const [key, v] of change.storage) slots.set(key, v)
      }
    }
    const oldest = this.block - KEEP_BLOCKS + 1
    for (const [address, k] of this.accounts) if (k.seen < oldest) this.accounts.delete(address)
    this.block++
    this.root = root.slice()
  }

  clear(): void {
    this.accounts.clear()
    this.root = undefined
  }

  /** Accounts held, for tests. */
  get size(): number {
    return this.accounts.size
  }

  /** The account's entry, made if absent, marked as touched by the block being executed. */
  private entry(address: bigint): Kept {
    let k = this.accounts.get(address)
    if (k === undefined) {
      k = { loaded: false, data: undefined, storageRoot: undefined, slots: undefined, whole: false, seen: this.block }
      this.accounts.set(address, k)
    } else {
      k.seen = this.block
    }
    return k
  }

  account(address: bigint): AccountData | undefined {
    const k = this.entry(address)
    if (!k.loaded) {
      k.data = this.base!.account(address)
      k.loaded = true
    }
    return k.data
  }

  code(codeHash: Uint8Array, address: bigint): Uint8Array {
    return this.base!.code(codeHash, address)
  }

  storage(address: bigint, slot: bigint): bigint {
    const k = this.entry(address)
    const v = k.slots?.get(slot)
    if (v !== undefined) return v
    if (k.whole) return 0n
    const read = this.base!.storage(address, slot)
    ;(k.slots ??= new Map()).set(slot, read)
    return read
  }

  hasStorage(address: bigint): boolean {
    return !isEmptyTrie(this.storageRoot(address))
  }

  storageRoot(address: bigint): Uint8Array {
    const k = this.accounts.get(address)
    if (k === undefined || !k.loaded) return this.base!.storageRoot(address)
    if (k.data === undefined) return EMPTY_TRIE_ROOT
    k.storageRoot ??= this.base!.storageRoot(address)
    return k.storageRoot
  }
}
