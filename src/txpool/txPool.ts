import type { PooledBlob } from '../txrules/txValidation.js'
import { TxPoolRejectedError } from './errors.js'

/** A transaction admitted to the pool; fee fields are what ordering and replacement look at. */
export interface PooledTx {
  hash: string
  raw: Uint8Array
  sender: string
  /** The sender's public key as recovered at admission: a payload carrying the transaction need not recover it again. */
  senderKey?: Uint8Array
  nonce: bigint
  maxFee: bigint
  maxPriorityFee: bigint
  json: string
  /** A blob transaction's sidecar. */
  blobs?: PooledBlob[]
}

export interface TxPoolOptions {
  /** Most transactions held at once, pending and queued together. */
  maxSize: number
  /** A replacement must raise both fee caps by at least this many percent (geth: 10). */
  priceBumpPercent: number
  /** Most transactions one sender may have pooled (pending and queued): one account cannot fill the pool. */
  accountSlots?: number
  /** Most blobs held (128 KiB each, with their proofs). */
  maxBlobs?: number
}

const DEFAULT_MAX_BLOBS = 512

/** A quarter of the default pool (4096). */
const DEFAULT_ACCOUNT_SLOTS = 1024
/** Most transactions a sender may hold after a nonce gap, which cannot run until the gap fills (geth: 64). */
export const ACCOUNT_QUEUE = 64

/** A sender's run of pending transactions, for the builder's merge by tip. */
interface Run {
  txs: PooledTx[]
  at: number
  tip: bigint
}

/**
 * The transaction pool, on the serving thread: by sender and nonce, pending (nonces contiguous from the sender's
 * state nonce) and queued (after a gap). Validation against state happens before, in the worker pool. Only senders
 * with pooled transactions are tracked.
 */
export class TxPool {
  private readonly bySender = new Map<string, Map<bigint, PooledTx>>()
  private readonly byHash = new Map<string, PooledTx>()
  /** The nonce each tracked sender's next executable transaction must have (its state nonce at the head). */
  private readonly floors = new Map<string, bigint>()
  private readonly listeners: (() => void)[] = []
  private readonly admitted: ((hash: string) => void)[] = []
  /** The sidecars of pooled blob transactions, by versioned hash (engine_getBlobs). */
  private readonly blobIndex = new Map<string, PooledBlob>()
  /**
   * Pooled transactions whose version-0 sidecars are to be given cell proofs (txSubmission.ts), by hash: how, and the
   * conversion under way once one is.
   */
  private readonly unconverted = new Map<string, { make: () => Promise<void>; making?: Promise<void> }>()

  constructor(private readonly opts: TxPoolOptions) {}

  get size(): number {
    return this.byHash.size
  }

  /** Senders the pool keeps a nonce floor for: exactly those with pooled transactions. */
  get trackedSenders(): number {
    return this.floors.size
  }

  get(hash: string): PooledTx | undefined {
    return this.byHash.get(hash)
  }

  /** Called whenever a transaction becomes pending (the dev driver builds on it). */
  onPending(listener: () => void): void {
    this.listeners.push(listener)
  }

  /** Called with the hash of every transaction the pool admits, pending or queued (pending-transaction filters). */
  onAdmitted(listener: (hash: string) => void): void {
    this.admitted.push(listener)
  }

  /**
   * Admits a validated transaction, or throws TxPoolRejectedError with geth's message. `stateNonce` was read at some
   * head, possibly an older one than the pool knows of: it can raise the sender's floor, never lower it (a reorg
   * lowers floors through forgetFloors).
   */
  add(tx: PooledTx, stateNonce: bigint): void {
    if (this.byHash.has(tx.hash)) throw new TxPoolRejectedError('already known', 'alreadyKnown')
    const known = this.floors.get(tx.sender)
    const floor = known === undefined || stateNonce > known ? stateNonce : known
    if (tx.nonce < floor) throw new TxPoolRejectedError(`nonce too low: next nonce ${floor}, tx nonce ${tx.nonce}`, 'nonceTooLow')
    let slots = this.bySender.get(tx.sender)
    const existing = slots?.get(tx.nonce)
    if (existing !== undefined) {
      const bump = (v: bigint) => v + (v * BigInt(this.opts.priceBumpPercent)) / 100n
      if (tx.maxFee < bump(existing.maxFee) || tx.maxPriorityFee < bump(existing.maxPriorityFee)) {
        throw new TxPoolRejectedError('replacement transaction underpriced', 'replacementUnderpriced')
      }
      this.byHash.delete(existing.hash)
      this.unconverted.delete(existing.hash)
    } else {
      if (this.byHash.size >= this.opts.maxSize) throw new TxPoolRejectedError('txpool is full', 'poolFull')
      if ((slots?.size ?? 0) >= (this.opts.accountSlots ?? DEFAULT_ACCOUNT_SLOTS)) {
        throw new TxPoolRejectedError('account limit exceeded', 'accountLimitExceeded')
      }
      if (slots !== undefined && this.queuedCount(slots, floor) >= ACCOUNT_QUEUE && !this.extendsRun(slots, floor, tx.nonce)) {
        throw new TxPoolRejectedError('account limit exceeded', 'accountLimitExceeded')
      }
    }
    const blobs = tx.blobs?.length ?? 0
    if (blobs > 0 && this.blobIndex.size + blobs - (existing?.blobs?.length ?? 0) > (this.opts.maxBlobs ?? DEFAULT_MAX_BLOBS)) {
      throw new TxPoolRejectedError('blob pool is full', 'blobPoolFull')
    }
    if (existing !== undefined) this.unindexBlobs(existing)
    if (slots === undefined) {
      slots = new Map()
      this.bySender.set(tx.sender, slots)
    }
    this.floors.set(tx.sender, floor)
    slots.set(tx.nonce, tx)
    this.byHash.set(tx.hash, tx)
    for (const b of tx.blobs ?? []) this.blobIndex.set(b.versionedHash, b)
    for (const l of this.admitted) l(tx.hash)
    if (this.isPending(tx)) this.notify()
  }

  /** Transactions of a sender that cannot run yet: those after the first gap above its floor. */
  private queuedCount(slots: Map<bigint, PooledTx>, floor: bigint): number {
    let run = 0
    for (let n = floor; slots.has(n); n++) run++
    return slots.size - run
  }

  /** Whether a transaction with this nonce would continue the sender's executable run (so it is not queued). */
  private extendsRun(slots: Map<bigint, PooledTx>, floor: bigint, nonce: bigint): boolean {
    let n = floor
    while (slots.has(n)) n++
    return nonce === n
  }

  /** The pooled sidecar entry of a blob, by versioned hash. */
  blob(versionedHash: string): PooledBlob | undefined {
    return this.blobIndex.get(versionedHash)
  }

  /**
   * The pooled transaction `hash` holds a version-0 sidecar where cell proofs are due: `make` gives it them
   * (withCellProofs), once they are wanted (cellProofsMade); it settles, never rejects (a failure it reports itself). Pooled meanwhile with its blob proofs, it is served as
   * such nowhere that wants cell proofs: those wait for them.
   */
  needsCellProofs(hash: string, make: () => Promise<void>): void {
    if (this.byHash.has(hash)) this.unconverted.set(hash, { make })
  }

  /**
   * Settles once the pooled transaction `hash` has the cell proofs it was waiting for (at once if it was waiting for
   * none, or has left the pool), starting their making if none is under way. A making that failed leaves the
   * transaction waiting: the next want makes them again.
   */
  cellProofsMade(hash: string): Promise<void> {
    const u = this.unconverted.get(hash)
    if (u === undefined) return Promise.resolve()
    u.making ??= u.make().finally(() => {
      if (this.unconverted.get(hash) !== u) return
      if (this.byHash.get(hash)?.blobs?.[0]?.cellProofs === true) this.unconverted.delete(hash)
      else u.making = undefined
    })
    return u.making
  }

  /** Pooled transactions whose sidecars carry blob proofs (version 0) and wait for no cell proofs. */
  withBlobProofs(): PooledTx[] {
    const out: PooledTx[] = []
    if (this.blobIndex.size === 0) return out
    for (const tx of this.byHash.values()) if (tx.blobs?.[0]?.cellProofs === false && !this.unconverted.has(tx.hash)) out.push(tx)
    return out
  }

  /** cellProofsMade for each pooled transaction holding one of these blobs (engine_getBlobsV2). */
  async blobsWithCellProofs(versionedHashes: string[]): Promise<void> {
    if (this.unconverted.size === 0) return
    const wanted = new Set(versionedHashes)
    const waits: Promise<void>[] = []
    for (const hash of this.unconverted.keys()) {
      if (this.byHash.get(hash)?.blobs?.some((b) => wanted.has(b.versionedHash)) === true) waits.push(this.cellProofsMade(hash))
    }
    await Promise.all(waits)
  }

  /**
   * `tx`'s sidecar, once its cell proofs are made: `raw` is its version-1 network wrapper, `blobs` carry the cell
   * proofs. Nothing if it left the pool (or was replaced) meanwhile.
   */
  withCellProofs(tx: PooledTx, raw: Uint8Array, blobs: PooledBlob[]): void {
    if (this.byHash.get(tx.hash) !== tx) return
    this.unindexBlobs(tx)
    tx.raw = raw
    tx.blobs = blobs
    for (const b of blobs) this.blobIndex.set(b.versionedHash, b)
  }

  private unindexBlobs(tx: PooledTx): void {
    for (const b of tx.blobs ?? []) if (this.blobIndex.get(b.versionedHash) === b) this.blobIndex.delete(b.versionedHash)
  }

  private notify(): void {
    for (const l of this.listeners) l()
  }

  /** Whether the pooled transaction `hash` is pending (can run on the head), not queued behind a gap nor gone. */
  isPendingHash(hash: string): boolean {
    const tx = this.byHash.get(hash)
    return tx !== undefined && this.isPending(tx)
  }

  private isPending(tx: PooledTx): boolean {
    const slots = this.bySender.get(tx.sender)
    for (let n = this.floors.get(tx.sender) ?? 0n; n <= tx.nonce; n++) if (!slots?.has(n)) return false
    return true
  }

  /**
   * Every sender's transactions, split as geth's txpool_* methods report them: pending (contiguous from the sender's
   * nonce) and queued (after a gap), each in nonce order.
   */
  bySenderSplit(only?: string): { sender: string; pending: PooledTx[]; queued: PooledTx[] }[] {
    const out: { sender: string; pending: PooledTx[]; queued: PooledTx[] }[] = []
    for (const [sender, slots] of this.bySender) {
      if (only !== undefined && sender !== only) continue
      let n = this.floors.get(sender) ?? 0n
      const pending: PooledTx[] = []
      for (; slots.has(n); n++) pending.push(slots.get(n)!)
      const queued = [...slots.values()].filter((t) => t.nonce > n).sort((a, b) => (a.nonce < b.nonce ? -1 : 1))
      out.push({ sender, pending, queued })
    }
    return out
  }

  /** The nonce a sender's next transaction should carry: after its pending run in the pool. */
  nextNonce(sender: string, stateNonce: bigint): bigint {
    const slots = this.bySender.get(sender)
    let n = stateNonce
    while (slots?.has(n) === true) n++
    return n
  }

  /**
   * Pending transactions in the order a builder should try them: each sender's in nonce order, senders interleaved
   * by the tip their next transaction pays at `baseFee` (highest first). A heap of the senders' runs: O(n log s).
   */
  pending(baseFee: bigint): PooledTx[] {
    const tip = (t: PooledTx) => {
      const room = t.maxFee - baseFee
      return room < t.maxPriorityFee ? room : t.maxPriorityFee
    }
    const heap: Run[] = []
    let total = 0
    for (const [sender, slots] of this.bySender) {
      const txs: PooledTx[] = []
      for (let n = this.floors.get(sender) ?? 0n; slots.has(n); n++) txs.push(slots.get(n)!)
      if (txs.length > 0) {
        heap.push({ txs, at: 0, tip: tip(txs[0]!) })
        total += txs.length
      }
    }
    // Ties keep the senders' insertion order, as the linear scan this replaced did.
    const order = new Map(heap.map((r, i) => [r, i]))
    const above = (a: Run, b: Run) => a.tip > b.tip || (a.tip === b.tip && order.get(a)! < order.get(b)!)
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i, above)
    const out: PooledTx[] = []
    while (out.length < total) {
      const top = heap[0]!
      out.push(top.txs[top.at++]!)
      if (top.at < top.txs.length) {
        top.tip = tip(top.txs[top.at]!)
      } else {
        heap[0] = heap[heap.length - 1]!
        heap.pop()
      }
      if (heap.length > 0) siftDown(heap, 0, above)
    }
    return out
  }

  /** Whether any transaction is pending (cheaper than pending()). */
  private hasPending(): boolean {
    for (const [sender, slots] of this.bySender) if (slots.has(this.floors.get(sender) ?? 0n)) return true
    return false
  }

  /** After a block becomes canonical: forget what it included and everything below the senders' new nonces. */
  removeIncluded(included: { hash: string; sender: string; nonce: bigint }[]): void {
    for (const t of included) {
      const slots = this.bySender.get(t.sender)
      // A sender with nothing pooled is not tracked: its next transaction brings its state nonce along.
      if (slots === undefined) continue
      const floor = t.nonce + 1n > this.floors.get(t.sender)! ? t.nonce + 1n : this.floors.get(t.sender)!
      this.floors.set(t.sender, floor)
      for (const [n, p] of slots) {
        if (n < floor) {
          slots.delete(n)
          this.byHash.delete(p.hash)
          this.unconverted.delete(p.hash)
          this.unindexBlobs(p)
        }
      }
      if (slots.size === 0) this.forget(t.sender)
    }
    if (this.hasPending()) this.notify()
  }

  /**
   * Takes one transaction out of the pool (its send was refused after all: its block could not be stored). The
   * sender's later transactions wait behind the gap it leaves, as queued.
   */
  drop(hash: string): void {
    const tx = this.byHash.get(hash)
    if (tx === undefined) return
    this.byHash.delete(hash)
    this.unconverted.delete(hash)
    this.unindexBlobs(tx)
    const slots = this.bySender.get(tx.sender)!
    slots.delete(tx.nonce)
    if (slots.size === 0) this.forget(tx.sender)
  }

  /**
   * After a reorg took blocks off the canonical chain: these senders' nonces may have gone down. Their floors are
   * dropped and re-learnt from the next state read (the re-pooled transactions bring theirs).
   */
  forgetFloors(senders: Iterable<string>): void {
    for (const s of senders) if (this.floors.has(s)) this.floors.set(s, 0n)
  }

  private forget(sender: string): void {
    this.bySender.delete(sender)
    this.floors.delete(sender)
  }
}

function siftDown(heap: Run[], i: number, above: (a: Run, b: Run) => boolean): void {
  for (;;) {
    const l = 2 * i + 1
    const r = l + 1
    let top = i
    if (l < heap.length && above(heap[l]!, heap[top]!)) top = l
    if (r < heap.length && above(heap[r]!, heap[top]!)) top = r
    if (top === i) return
    const t = heap[i]!
    heap[i] = heap[top]!
    heap[top] = t
    i = top
  }
}
