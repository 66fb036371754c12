import { hexToBytes } from '../util/hex.js'
import { HexKeyTable } from '../util/hexKeyTable.js'
import { SnapshotStamp } from './snapshotStamp.js'
import type { ChainStoreReads } from './chainStore.js'

// The stored JSON of canonical transactions and their receipts, kept by the hash string asked, as geth keeps its
// receipts and transaction lookups in LRU caches and reth its RPC cache of blocks and receipts: a kept reply costs a
// lookup instead of two LMDB reads (the transaction's location, then its JSON) and a copy out of LMDB's buffer.
// Measured over HTTP (bench:load's receipts, two serving threads): ~4 µs of ~24 µs of CPU a receipt.
//
// What is kept was read from blocks of the canonical chain that ended at `tip`; it stays true while `tip` is on the
// canonical chain. The head is compared with `tip` before a reply is given, again only when the snapshot may have
// changed (store/snapshotStamp.ts, as the flat state's head check): the same head, nothing to do; a head that
// extends `tip`, `tip` moves on; any other (a reorg, a head set back) drops everything kept. A transaction not found
// (pending, unknown) is never kept.

export type TxReplyKind = 'receipt' | 'transaction'

/** Bounds per kind and thread: entries, and bytes of replies; a larger reply is served but not kept. */
const MAX_ENTRIES = 16_384
const MAX_BYTES = 8 * 1024 * 1024
const MAX_ONE_BYTES = 16 * 1024

/**
 * One kind's replies, by the hash string as asked (util/hexKeyTable.ts). Past its bounds it starts over: it is
 * cleared whole, as the flat state's kept replies are, instead of dropping the oldest one by one (which needs an
 * order of insertion kept beside the table).
 */
class Kept {
  readonly byHash = new HexKeyTable<Uint8Array>()
  bytes = 0

  add(hash: string, reply: Uint8Array): void {
    if (this.byHash.size >= MAX_ENTRIES || this.bytes + reply.length > MAX_BYTES) this.clear()
    if (this.byHash.set(hash, reply)) this.bytes += reply.length
  }

  clear(): void {
    this.byHash.clear()
    this.bytes = 0
  }
}

export class TxReplies {
  private readonly byKind: Record<TxReplyKind, Kept> = { receipt: new Kept(), transaction: new Kept() }
  /** The head the kept replies were read at; `tipNumber` undefined until one is known (nothing is kept before). */
  private readonly tip = new Uint8Array(32)
  private tipNumber: bigint | undefined
  /** When the last head check holds. */
  private readonly checked: SnapshotStamp

  constructor(private readonly store: ChainStoreReads) {
    this.checked = new SnapshotStamp(store)
  }

  /**
   * The JSON of the canonical transaction `hash` (0x and 64 hex digits) or of its receipt; undefined when no canonical
   * transaction has that hash. A reply read now may be a view of LMDB's buffer, valid until the next read.
   */
  get(kind: TxReplyKind, hash: string): Uint8Array | undefined {
    const hit = this.kept(kind, hash)
    if (hit !== undefined) return hit
    const key = hexToBytes(hash)
    const view = kind === 'receipt' ? this.store.receiptJsonView(key) : this.store.txJsonViewByTxHash(key)
    if (view === undefined || this.tipNumber === undefined || view.length > MAX_ONE_BYTES) return view
    const copy = Uint8Array.prototype.slice.call(view)
    this.byKind[kind].add(hash, copy)
    return copy
  }

  /**
   * The reply kept for `hash` exactly as written, else undefined (nothing is read from the store). Only `get`'s
   * answers are kept, so `hash` is then a valid hash: a method may ask before it validates its parameters
   * (MethodDef.kept).
   */
  kept(kind: TxReplyKind, hash: string): Uint8Array | undefined {
    this.check()
    return this.byKind[kind].byHash.get(hash)
  }

  /** Replies kept, of each kind. */
  get size(): Record<TxReplyKind, number> {
    return { receipt: this.byKind.receipt.byHash.size, transaction: this.byKind.transaction.byHash.size }
  }

  /** Keeps the kept replies true of the snapshot read now: see the file's comment. */
  private check(): void {
    if (this.checked.holds()) return
    const same = this.tipNumber !== undefined && this.store.headIs(this.tip)
    this.checked.stamp()
    if (same) return
    const head = this.store.getLabel('head')
    const number = head === undefined ? undefined : this.store.getNumber(head)
    const stillCanonical =
      this.tipNumber !== undefined && number !== undefined && number >= this.tipNumber && this.store.isCanonical(this.tipNumber, this.tip)
    if (!stillCanonical) {
      this.byKind.receipt.clear()
      this.byKind.transaction.clear()
    }
    if (head === undefined || number === undefined) {
      this.tipNumber = undefined
      return
    }
    this.tip.set(head)
    this.tipNumber = number
  }
}
