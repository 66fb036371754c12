import { TxPoolRejectedError } from './errors.js'

/** A transaction admitted to the pool; fee fields are what ordering and replacement look at. */
export interface PooledTx {
  hash: string
  raw: Uint8Array
  sender: string
  nonce: bigint
  maxFee: bigint
  maxPriorityFee: bigint
  json: string
}

export interface TxPoolOptions {
  /** Most transactions held at once, pending and queued together. */
  maxSize: number
  /** A replacement must raise both fee caps by at least this many percent (geth: 10). */
  priceBumpPercent: number
}

/**
 * The transaction pool, on the serving thread: by sender and nonce, pending (nonces contiguous from the sender's
 * state nonce) and queued (after a gap). Validation against state happens before, in the worker pool.
 */
export class TxPool {
  private readonly bySender = new Map<string, Map<bigint, PooledTx>>()
  private readonly byHash = new Map<string, PooledTx>()
  private readonly stateNonces = new Map<string, bigint>()
  private readonly listeners: (() => void)[] = []

  constructor(private readonly opts: TxPoolOptions) {}

  get size(): number {
    return this.byHash.size
  }

  get(hash: string): PooledTx | undefined {
    return this.byHash.get(hash)
  }

  /** Called whenever a transaction becomes pending (the dev driver builds on it). */
  onPending(listener: () => void): void {
    this.listeners.push(listener)
  }

  /** Admits a validated transaction, or throws TxPoolRejectedError with geth's message. */
  add(tx: PooledTx, stateNonce: bigint): void {
    if (this.byHash.has(tx.hash)) throw new TxPoolRejectedError('already known')
    // The nonce just read from the head state is authoritative: after a reorg it can be lower than before.
    this.stateNonces.set(tx.sender, stateNonce)
    if (tx.nonce < (this.stateNonces.get(tx.sender) ?? 0n)) {
      throw new TxPoolRejectedError(`nonce too low: next nonce ${this.stateNonces.get(tx.sender)}, tx nonce ${tx.nonce}`)
    }
    let slots = this.bySender.get(tx.sender)
    const existing = slots?.get(tx.nonce)
    if (existing !== undefined) {
      const bump = (v: bigint) => v + (v * BigInt(this.opts.priceBumpPercent)) / 100n
      if (tx.maxFee < bump(existing.maxFee) || tx.maxPriorityFee < bump(existing.maxPriorityFee)) {
        throw new TxPoolRejectedError('replacement transaction underpriced')
      }
      this.byHash.delete(existing.hash)
    } else if (this.byHash.size >= this.opts.maxSize) {
      throw new TxPoolRejectedError('txpool is full')
    }
    if (slots === undefined) {
      slots = new Map()
      this.bySender.set(tx.sender, slots)
    }
    slots.set(tx.nonce, tx)
    this.byHash.set(tx.hash, tx)
    if (this.isPending(tx)) for (const l of this.listeners) l()
  }

  private isPending(tx: PooledTx): boolean {
    const slots = this.bySender.get(tx.sender)
    for (let n = this.stateNonces.get(tx.sender) ?? 0n; n <= tx.nonce; n++) if (!slots?.has(n)) return false
    return true
  }

  private noteStateNonce(sender: string, nonce: bigint): void {
    const known = this.stateNonces.get(sender)
    if (known === undefined || nonce > known) this.stateNonces.set(sender, nonce)
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
   * by the tip their next transaction pays at `baseFee` (highest first).
   */
  pending(baseFee: bigint): PooledTx[] {
    const runs: PooledTx[][] = []
    for (const [sender, slots] of this.bySender) {
      const run: PooledTx[] = []
      for (let n = this.stateNonces.get(sender) ?? 0n; slots.has(n); n++) run.push(slots.get(n)!)
      if (run.length > 0) runs.push(run)
    }
    const tip = (t: PooledTx) => {
      const room = t.maxFee - baseFee
      return room < t.maxPriorityFee ? room : t.maxPriorityFee
    }
    const out: PooledTx[] = []
    const heads = runs.map(() => 0)
    while (true) {
      let best = -1
      for (let i = 0; i < runs.length; i++) {
        const t = runs[i]![heads[i]!]
        if (t === undefined) continue
        if (best < 0 || tip(t) > tip(runs[best]![heads[best]!]!)) best = i
      }
      if (best < 0) return out
      out.push(runs[best]![heads[best]!]!)
      heads[best]!++
    }
  }

  /** After a block becomes canonical: forget what it included and everything below the senders' new nonces. */
  removeIncluded(included: { hash: string; sender: string; nonce: bigint }[]): void {
    for (const t of included) {
      this.noteStateNonce(t.sender, t.nonce + 1n)
      const slots = this.bySender.get(t.sender)
      if (slots === undefined) continue
      const floor = this.stateNonces.get(t.sender)!
      for (const [n, p] of slots) {
        if (n < floor) {
          slots.delete(n)
          this.byHash.delete(p.hash)
        }
      }
      if (slots.size === 0) this.bySender.delete(t.sender)
    }
    if (this.pending(0n).length > 0) for (const l of this.listeners) l()
  }
}
