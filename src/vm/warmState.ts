import type { AccountData } from '../evm/state.js'
import { equalBytes } from '../util/hex.js'
import { EMPTY_TRIE_ROOT, isEmptyTrie } from './accountCodec.js'
import type { CommittedAccount } from './blockCommit.js'
import type { StoredStateSource } from './stateSources.js'

// The state a chain of blocks runs on, kept warm from one block to its child: every account and slot a block read
// or wrote, as they are after it, in front of the store's source at the same root. A block whose parent is the last
// block executed here then reads nothing it or its parent touched from LMDB (a payload's parent is not the flat
// table's state until forkchoice makes it the head, so those reads would be trie walks). Any other parent starts
// the cache afresh; a block that fails leaves it at its parent, whose values it still holds.

/** Accounts and slots kept; past it the cache starts again empty (a long import would otherwise hold everything). */
const MAX_ENTRIES = 1_000_000

interface Kept {
  data: AccountData | undefined
  /** Undefined until asked for. */
  storageRoot: Uint8Array | undefined
}

export class WarmState implements StoredStateSource {
  private root: Uint8Array | undefined
  private base: StoredStateSource | undefined
  private readonly accounts = new Map<bigint, Kept>()
  private readonly slots = new Map<bigint, Map<bigint, bigint>>()
  /** Accounts whose every slot is in `slots` (their storage was cleared since the base's state): a miss is zero. */
  private readonly whole = new Set<bigint>()
  private entries = 0

  /** This cache at `root`, in front of `base` (the store's state at `root`); emptied unless it was already there. */
  at(root: Uint8Array, base: StoredStateSource): StoredStateSource {
    if (this.root === undefined || !equalBytes(this.root, root)) {
      this.clear()
      this.root = root.slice()
    }
    this.base = base
    return this
  }

  /** Moves the cache to the state a block committed on top of the one it is at. */
  advance(root: Uint8Array, committed: readonly CommittedAccount[]): void {
    for (const { change, storageRoot } of committed) {
      const a = change.account
      this.accounts.set(change.address, {
        data: a === undefined ? undefined : { nonce: a.nonce, balance: a.balance, codeHash: a.codeHash },
        storageRoot,
      })
      let slots = this.slots.get(change.address)
      if (a === undefined || change.storageWiped) {
        slots = new Map()
        this.slots.set(change.address, slots)
        this.whole.add(change.address)
      } else if (slots === undefined) {
        slots = new Map()
        this.slots.set(change.address, slots)
      }
      if (a !== undefined) for (const [k, v] of change.storage) slots.set(k, v)
      this.entries += 1 + change.storage.size
    }
    this.root = root.slice()
    if (this.entries > MAX_ENTRIES) this.clear()
  }

  clear(): void {
    this.accounts.clear()
    this.slots.clear()
    this.whole.clear()
    this.entries = 0
    this.root = undefined
  }

  account(address: bigint): AccountData | undefined {
    let k = this.accounts.get(address)
    if (k === undefined) {
      k = { data: this.base!.account(address), storageRoot: undefined }
      this.accounts.set(address, k)
      this.entries++
    }
    return k.data
  }

  code(codeHash: Uint8Array, address: bigint): Uint8Array {
    return this.base!.code(codeHash, address)
  }

  storage(address: bigint, slot: bigint): bigint {
    let slots = this.slots.get(address)
    const v = slots?.get(slot)
    if (v !== undefined) return v
    if (this.whole.has(address)) return 0n
    const read = this.base!.storage(address, slot)
    if (slots === undefined) {
      slots = new Map()
      this.slots.set(address, slots)
    }
    slots.set(slot, read)
    this.entries++
    return read
  }

  hasStorage(address: bigint): boolean {
    return !isEmptyTrie(this.storageRoot(address))
  }

  storageRoot(address: bigint): Uint8Array {
    const k = this.accounts.get(address)
    if (k === undefined) return this.base!.storageRoot(address)
    if (k.data === undefined) return EMPTY_TRIE_ROOT
    k.storageRoot ??= this.base!.storageRoot(address)
    return k.storageRoot
  }
}
