import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_NULL } from '@ethereumjs/util'
import type { Database } from 'lmdb'
import { addressInto, bytesHex, quantityHex, slotInto, wordHex } from '../codecs/stateHex.js'
import { keccak256 } from '../crypto/keccak.js'
import { CODE_PREFIX } from '../store/layout.js'
import type { ChainStore } from '../store/chainStore.js'
import { flatHeadIsCanonicalHead } from '../store/flatState.js'
import { SnapshotStamp } from '../store/snapshotStamp.js'
import { bytesToBigInt, equalBytes } from '../util/hex.js'
import { HexKeyTable } from '../util/hexKeyTable.js'
import { rlpEnd, rlpStart, rlpStringAt } from '../util/rlpString.js'

// State reads answered on the serving thread from the flat state table (store/flatState.ts), as receipts are: an
// LMDB read or two and no trie walk, no worker round trip. Only the state the table holds — the canonical head's
// post-state, as a rule (store/flatState.ts followHead) — is answered here; every method returns undefined for any other state, and the caller asks a worker,
// which walks the tries.
//
// Reads at the canonical head (`latest`, `pending`, or no block: what wallets ask) take a shorter way: the head
// check compares two meta values in LMDB's buffer, the value is read in LMDB's buffer too and turned into its reply
// text there — no copies, no header, no BigInt. Parameters are parsed into the reused keys below: LMDB copies a key
// before reading, and the serving thread reads one value at a time.

/** An account's fields as eth_getBalance, eth_getTransactionCount and eth_getCode need them; null: no account. */
export interface FlatAccount {
  nonce: bigint
  balance: bigint
  codeHash: Uint8Array
}

/** The account field a head read answers with. */
export type AccountField = 'balance' | 'nonce' | 'code'

type Db = Database<Uint8Array, Uint8Array>

const ZERO_WORD = `0x${'0'.repeat(64)}`
/**
 * Bounds of the head replies kept (entries, and characters of keys and replies): past either, all are dropped and
 * kept anew, a rare event, since the accounts and slots read at a head are mostly a few.
 */
const MAX_REPLIES = 65_536
const MAX_REPLY_CHARS = 16 * 1024 * 1024

/** What a malformed entry is called in its error. */
const WHAT = 'flat state entry'

/** Where the first item of the RLP list `b` starts. */
function listStart(b: Uint8Array): number {
  const p = b[0]!
  if (p >= 0xc0 && p <= 0xf7) return 1
  if (p > 0xf7) return 1 + p - 0xf7
  throw new Error('flat account entry is not a list')
}

function isEmptyCodeHash(b: Uint8Array, start: number, end: number): boolean {
  if (end - start !== 32) return false
  for (let i = 0; i < 32; i++) if (b[start + i] !== KECCAK256_NULL[i]) return false
  return true
}

export class FlatStateReader {
  /** address ‖ keccak256(slot), the flat storage key, reused: the serving thread reads one slot at a time. */
  private readonly slotKey = new Uint8Array(52)
  private readonly addressKey = new Uint8Array(20)
  private readonly slotWord = new Uint8Array(32)
  /** CODE_PREFIX ‖ code hash: where the trie database keeps code. */
  private readonly codeKey = new Uint8Array(CODE_PREFIX.length + 32)
  private readonly meta: Db
  private readonly accounts: Db
  private readonly storage: Db
  private readonly trie: Db
  /** The head check's answer, and when it holds. */
  private headOk = false
  private readonly headStamp: SnapshotStamp
  /** The head the last check found, and the head whose replies are kept. */
  private readonly checkedHead = new Uint8Array(32)
  private readonly repliesHead = new Uint8Array(32)
  /**
   * Replies at the head, by what they answer: the table's content at one head block never changes (a head that moves
   * and comes back is the same state), so they are kept until the head moves, as geth keeps its snapshot's clean
   * cache and anvil its state in memory. A read at the head then costs a lookup instead of LMDB reads and the
   * reply's hex.
   */
  private readonly replies: Record<AccountField, HexKeyTable<string>> = {
    balance: new HexKeyTable(),
    nonce: new HexKeyTable(),
    code: new HexKeyTable(),
  }
  /** The same for slots, by address and then slot. */
  private readonly slotReplies = new HexKeyTable<HexKeyTable<string>>()
  private replyCount = 0
  private replyChars = 0

  constructor(private readonly store: ChainStore) {
    this.meta = store.db('meta')
    this.accounts = store.db('flatAccounts')
    this.storage = store.db('flatStorage')
    this.trie = store.db('trie')
    this.codeKey.set(CODE_PREFIX)
    this.headStamp = new SnapshotStamp(store)
  }

  /**
   * Whether the table holds the canonical head's state: two meta reads, made again only when the snapshot may have
   * changed (store/snapshotStamp.ts: once per batch of head reads, and on a serving thread once per pass).
   */
  private atHead(): boolean {
    if (this.headStamp.holds()) return this.headOk
    this.headOk = flatHeadIsCanonicalHead(this.meta, this.checkedHead)
    this.headStamp.stamp()
    if (this.headOk && !equalBytes(this.checkedHead, this.repliesHead)) {
      this.dropReplies()
      this.repliesHead.set(this.checkedHead)
    }
    return this.headOk
  }

  private dropReplies(): void {
    for (const m of Object.values(this.replies)) m.clear()
    this.slotReplies.clear()
    this.replyCount = 0
    this.replyChars = 0
  }

  /** Drops every kept reply when one more of `chars` characters (with its keys) would pass the bounds. */
  private makeRoom(chars: number): void {
    if (this.replyCount >= MAX_REPLIES || this.replyChars + chars > MAX_REPLY_CHARS) this.dropReplies()
  }

  /** Counts a reply just kept (a key HexKeyTable refused is not: it holds nothing). */
  private counted(chars: number): void {
    this.replyCount++
    this.replyChars += chars
  }

  /**
   * An account's balance or nonce (as a quantity) or code (as bytes) at the canonical head, as its reply text; or
   * undefined when the table does not hold the head's state.
   */
  headAccount(field: AccountField, address: string): string | undefined {
    if (!this.atHead()) return undefined
    // Keyed by the address string as it came, with no key built (a concatenated key costs what the read it saves does).
    const kept = this.replies[field]
    const hit = kept.get(address)
    if (hit !== undefined) return hit
    const reply = this.accountAtHead(field, address)
    const chars = address.length + reply.length
    this.makeRoom(chars)
    if (kept.set(address, reply)) this.counted(chars)
    return reply
  }

  /**
   * headAccount's reply when one is kept for `address` exactly as written, else undefined (nothing is read). Only
   * replies to valid addresses are kept: a method may ask before it validates its parameters (MethodDef.kept).
   */
  keptAccount(field: AccountField, address: string): string | undefined {
    return this.atHead() ? this.replies[field].get(address) : undefined
  }

  /** headSlot's reply when one is kept for `address` and `slot` exactly as written, as keptAccount. */
  keptSlot(address: string, slot: string): string | undefined {
    return this.atHead() ? this.slotReplies.get(address)?.get(slot) : undefined
  }

  /** headAccount's reply read from the table, the head check made. */
  private accountAtHead(field: AccountField, address: string): string {
    addressInto(address, this.addressKey)
    // A view of LMDB's read buffer: valid until the next read, so everything is taken from it first.
    const rlp = this.accounts.getBinaryFast(this.addressKey)
    if (rlp === undefined) return field === 'code' ? '0x' : '0x0'
    let at = rlpStringAt(rlp, listStart(rlp), WHAT)
    if (field === 'nonce') return quantityHex(rlp, rlpStart, rlpEnd)
    at = rlpStringAt(rlp, at, WHAT)
    if (field === 'balance') return quantityHex(rlp, rlpStart, rlpEnd)
    rlpStringAt(rlp, rlpStringAt(rlp, at, WHAT), WHAT)
    if (isEmptyCodeHash(rlp, rlpStart, rlpEnd)) return '0x'
    this.codeKey.set(rlp.subarray(rlpStart, rlpEnd), CODE_PREFIX.length)
    const code = this.trie.getBinaryFast(this.codeKey)
    // The account was read from the table at this state, so its code is stored: a miss is the store's fault.
    if (code === undefined) throw new Error(`code ${Buffer.from(this.codeKey.subarray(CODE_PREFIX.length)).toString('hex')} missing from the store`)
    return bytesHex(code, 0, code.length)
  }

  /** A storage slot's value at the canonical head as a 32-byte word's text; undefined as headAccount. */
  headSlot(address: string, slot: string): string | undefined {
    if (!this.atHead()) return undefined
    const hit = this.slotReplies.get(address)?.get(slot)
    if (hit !== undefined) return hit
    addressInto(address, this.slotKey)
    const reply = this.slotAtHead(slot)
    const chars = address.length + slot.length + reply.length
    this.makeRoom(chars)
    let slots = this.slotReplies.get(address)
    if (slots === undefined) {
      slots = new HexKeyTable()
      if (!this.slotReplies.set(address, slots)) return reply
    }
    if (slots.set(slot, reply)) this.counted(chars)
    return reply
  }

  /**
   * Several addresses' slots at the canonical head, each as headSlot answers, in the order asked; undefined when the
   * table does not hold the head's state (then none is answered).
   */
  headSlots(slots: Record<string, string[]>, addresses: string[]): string[][] | undefined {
    if (!this.atHead()) return undefined
    const out: string[][] = []
    for (const a of addresses) {
      addressInto(a, this.slotKey)
      out.push(slots[a]!.map((s) => this.slotAtHead(s)))
    }
    return out
  }

  /** The slot of the address already in slotKey, the head check made. */
  private slotAtHead(slot: string): string {
    slotInto(slot, this.slotWord)
    this.slotKey.set(keccak256(this.slotWord), 20)
    const rlp = this.storage.getBinaryFast(this.slotKey)
    if (rlp === undefined) return ZERO_WORD
    rlpStringAt(rlp, 0, WHAT)
    return wordHex(rlp, rlpStart, rlpEnd)
  }

  account(stateRoot: Uint8Array, address: Uint8Array): FlatAccount | null | undefined {
    const rlp = this.store.flatAccount(stateRoot, address)
    if (rlp === undefined || rlp === null) return rlp
    const [nonce, balance, , codeHash] = RLP.decode(rlp) as Uint8Array[]
    return { nonce: bytesToBigInt(nonce!), balance: bytesToBigInt(balance!), codeHash: codeHash! }
  }

  /** The account's code (empty for none). */
  code(stateRoot: Uint8Array, address: Uint8Array): Uint8Array | undefined {
    const account = this.account(stateRoot, address)
    if (account === undefined) return undefined
    if (account === null || equalBytes(account.codeHash, KECCAK256_NULL)) return new Uint8Array()
    const key = new Uint8Array(CODE_PREFIX.length + 32)
    key.set(CODE_PREFIX)
    key.set(account.codeHash, CODE_PREFIX.length)
    // The account was read from the table at this state, so its code is stored: a miss is the store's fault.
    const code = this.store.getTrieNode(key)
    if (code === undefined) throw new Error(`code ${Buffer.from(account.codeHash).toString('hex')} missing from the store`)
    return code
  }

  /** A storage slot's value as a 32-byte word (zero when unset). */
  slot(stateRoot: Uint8Array, address: Uint8Array, slot: Uint8Array): Uint8Array | undefined {
    this.slotKey.set(address, 0)
    this.slotKey.set(keccak256(slot), 20)
    const rlp = this.store.flatSlot(stateRoot, this.slotKey)
    if (rlp === undefined) return undefined
    const word = new Uint8Array(32)
    if (rlp !== null) {
      const value = RLP.decode(rlp) as Uint8Array
      word.set(value, 32 - value.length)
    }
    return word
  }
}
