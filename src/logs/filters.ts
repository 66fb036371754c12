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
/**
 * Filters one client (a remote address, however many connections it opens) may hold: a tenth of all, so that no
 * client can take the slots the others need.
 */
export const MAX_FILTERS_PER_CLIENT = 1_000
/**
 * Filters the callers without a client key (none over HTTP or WebSocket, which name every client: in-process
 * callers) may hold together: half of all, so that they cannot take the slots of the clients that are named.
 */
export const MAX_FILTERS_UNNAMED = 5_000
/** The key of the clients without one, which share MAX_FILTERS_UNNAMED. */
const UNNAMED = ''

/** Why a filter was not installed: its client's share (or the unnamed clients' share) is full, or all slots are. */
export interface FilterRefusal {
  refused: 'client' | 'all'
  limit: number
}
/** Pending transaction hashes kept per filter between polls; older ones are dropped first. */
export const MAX_PENDING_HASHES = 10_000

interface Entry {
  filter: InstalledFilter
  deadline: number
  client: string
  /** The WebSocket connection that installed it, whose filters go when it closes. */
  connection: object | undefined
}

/**
 * The polling filters of eth_newFilter and friends, on the serving thread. Expiry is checked when filters are
 * touched, not by a timer: an expired filter is gone for the client either way, and nothing runs while idle.
 */
export class FilterRegistry {
  private readonly filters = new Map<string, Entry>()
  /** The pending-transaction filters, which every admitted transaction visits. */
  private readonly pending = new Set<Extract<InstalledFilter, { kind: 'pendingTxs' }>>()
  /** Installed filters by client key, for the shares; a client with none has no entry. */
  private readonly perClient = new Map<string, number>()

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.filters.size
  }

  /** Filters `client` holds (undefined: the unnamed clients together). */
  heldBy(client: string | undefined): number {
    return this.perClient.get(client ?? UNNAMED) ?? 0
  }

  /**
   * The new filter's id, or why not (after dropping expired ones): the client's share is full (MAX_FILTERS_PER_CLIENT;
   * MAX_FILTERS_UNNAMED for all clients without a key together), or MAX_FILTERS are installed. `connection`: the
   * WebSocket connection it came on, which holds it (dropConnection); the share is its client's all the same.
   */
  install(filter: InstalledFilter, client?: string, connection?: object): string | FilterRefusal {
    this.sweep()
    const key = client ?? UNNAMED
    const share = client === undefined ? MAX_FILTERS_UNNAMED : MAX_FILTERS_PER_CLIENT
    const held = this.perClient.get(key) ?? 0
    if (held >= share) return { refused: 'client', limit: share }
    if (this.filters.size >= MAX_FILTERS) return { refused: 'all', limit: MAX_FILTERS }
    const id = `0x${randomBytes(16).toString('hex')}`
    this.filters.set(id, { filter, deadline: this.now() + FILTER_TIMEOUT_MS, client: key, connection })
    this.perClient.set(key, held + 1)
    if (filter.kind === 'pendingTxs') this.pending.add(filter)
    return id
  }

  /**
   * Removes every filter installed over `connection`: it closed. Nobody polls them after that (geth's filters of a
   * connection go with it), and their slots return to their client's share.
   */
  dropConnection(connection: object): void {
    for (const [id, e] of this.filters) if (e.connection === connection) this.remove(id, e)
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
    const held = (this.perClient.get(e.client) ?? 1) - 1
    if (held === 0) this.perClient.delete(e.client)
    else this.perClient.set(e.client, held)
  }
}
