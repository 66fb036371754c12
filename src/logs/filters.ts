import { randomBytes } from 'node:crypto'
import type { BlockRef } from '../store/chainReader.js'
import type { LogCriteria } from './logQuery.js'

/** A block bound of a log filter as the client gave it: a tag is resolved each time the filter is read. */
export type FilterBound = bigint | 'latest' | 'earliest' | 'safe' | 'finalized'

export type InstalledFilter =
  | { kind: 'logs'; criteria: LogCriteria; from: FilterBound; to: FilterBound; blockHash?: Uint8Array; last: BlockRef }
  | { kind: 'blocks'; last: BlockRef }
  | { kind: 'pendingTxs'; hashes: string[] }

/** geth's idle expiry: a filter not polled for five minutes is removed. */
export const FILTER_TIMEOUT_MS = 5 * 60_000
/** Installed filters at most; a new one past it is refused (each holds a little state, pending ones a buffer). */
export const MAX_FILTERS = 10_000
/** Pending transaction hashes kept per filter between polls; older ones are dropped first. */
export const MAX_PENDING_HASHES = 10_000

interface Entry {
  filter: InstalledFilter
  deadline: number
}

/**
 * The polling filters of eth_newFilter and friends, on the serving thread. Expiry is checked when filters are
 * touched, not by a timer: an expired filter is gone for the client either way, and nothing runs while idle.
 */
export class FilterRegistry {
  private readonly filters = new Map<string, Entry>()
  /** The pending-transaction filters, which every admitted transaction visits. */
  private readonly pending = new Set<Extract<InstalledFilter, { kind: 'pendingTxs' }>>()

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.filters.size
  }

  /** The new filter's id, or undefined when MAX_FILTERS are installed (after dropping expired ones). */
  install(filter: InstalledFilter): string | undefined {
    this.sweep()
    if (this.filters.size >= MAX_FILTERS) return undefined
    const id = `0x${randomBytes(16).toString('hex')}`
    this.filters.set(id, { filter, deadline: this.now() + FILTER_TIMEOUT_MS })
    if (filter.kind === 'pendingTxs') this.pending.add(filter)
    return id
  }

  /** The filter, its idle deadline pushed back; undefined if unknown or expired. */
  touch(id: string): InstalledFilter | undefined {
    const e = this.filters.get(id.toLowerCase())
    if (e === undefined) return undefined
    const now = this.now()
    if (e.deadline <= now) {
      this.remove(id.toLowerCase(), e)
      return undefined
    }
    e.deadline = now + FILTER_TIMEOUT_MS
    return e.filter
  }

  uninstall(id: string): boolean {
    const e = this.filters.get(id.toLowerCase())
    if (e === undefined) return false
    this.remove(id.toLowerCase(), e)
    return e.deadline > this.now()
  }

  /** Called for each transaction the pool admits. */
  pendingTransaction(hash: string): void {
    for (const filter of this.pending) {
      if (filter.hashes.length >= MAX_PENDING_HASHES) filter.hashes.shift()
      filter.hashes.push(hash)
    }
  }

  private sweep(): void {
    const now = this.now()
    for (const [id, e] of this.filters) if (e.deadline <= now) this.remove(id, e)
  }

  private remove(id: string, e: Entry): void {
    this.filters.delete(id)
    if (e.filter.kind === 'pendingTxs') this.pending.delete(e.filter)
  }
}
