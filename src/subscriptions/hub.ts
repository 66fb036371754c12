import { randomBytes } from 'node:crypto'
import { headerJson } from '../codecs/block.js'
import { type LogCriteria, matchingLogs } from '../logs/logQuery.js'
import type { ChainStore } from '../store/chainStore.js'

// eth_subscribe over WebSocket: newHeads, logs (with removed: true for blocks a reorg takes away) and
// newPendingTransactions, pushed to each connection that asked. A notification is made once per event and kind;
// only the subscription id differs between subscribers.

export type Subscription = { kind: 'newHeads' } | { kind: 'logs'; criteria: LogCriteria } | { kind: 'newPendingTransactions' }

/** Subscriptions one connection may hold. */
export const MAX_SUBSCRIPTIONS_PER_CONNECTION = 256
/** Logs of one block pushed to one subscription at most (a flood of logs is not buffered without bound). */
const MAX_LOGS_PER_EVENT = 10_000

const utf8 = new TextDecoder()

/** One WebSocket connection's subscriptions; `send` returns false once the connection is gone. */
export class SubscriberConnection {
  readonly subs = new Map<string, Subscription>()
  closed = false

  constructor(
    private readonly hub: SubscriptionHub,
    readonly send: (text: string) => boolean,
  ) {}

  /** The new subscription's id, or undefined past MAX_SUBSCRIPTIONS_PER_CONNECTION. */
  subscribe(sub: Subscription): string | undefined {
    if (this.subs.size >= MAX_SUBSCRIPTIONS_PER_CONNECTION) return undefined
    const id = `0x${randomBytes(16).toString('hex')}`
    this.subs.set(id, sub)
    this.hub.count(sub.kind, 1)
    return id
  }

  unsubscribe(id: string): boolean {
    const sub = this.subs.get(id.toLowerCase())
    if (sub === undefined) return false
    this.subs.delete(id.toLowerCase())
    this.hub.count(sub.kind, -1)
    return true
  }

  close(): void {
    this.closed = true
    for (const id of [...this.subs.keys()]) this.unsubscribe(id)
    this.hub.disconnect(this)
  }
}

/** What the main thread tells serving threads of: transactions the pool admitted, canonical changes (newHeads, logs). */
export type SubscriberKind = 'pending' | 'chain'

const KINDS = 2
const ROW_OF_KIND: Record<SubscriberKind, number> = { pending: 0, chain: 1 }

/**
 * How many subscriptions each serving thread holds, by what the main thread would tell it of (newPendingTransactions;
 * newHeads and logs), counts in memory the thread shares with the main thread: the main thread tells the threads of
 * an admitted transaction, or of a canonical change, only when one of them has a subscriber for it. Each message
 * woke every thread (two a send on a dev chain, for each thread), and almost no thread has a subscriber. A
 * subscription counts from before its id is answered: an event after that answer reaches it. A thread ends the
 * snapshot of its last requests itself (node/servingThread.ts), which the canonical changes' messages used to do.
 */
export class SubscriberCounts {
  private readonly counts: Int32Array

  constructor(memory: SharedArrayBuffer) {
    this.counts = new Int32Array(memory)
  }

  static shared(threads: number): SharedArrayBuffer {
    return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * KINDS * threads)
  }

  /** A thread's subscriptions of `kind` change. */
  add(row: number, kind: SubscriberKind, delta: number): void {
    Atomics.add(this.counts, row * KINDS + ROW_OF_KIND[kind], delta)
  }

  /** A thread ended: its subscriptions went with its connections. */
  clear(row: number): void {
    for (let k = 0; k < KINDS; k++) Atomics.store(this.counts, row * KINDS + k, 0)
  }

  /** Whether any thread holds a subscription of `kind`. */
  any(kind: SubscriberKind): boolean {
    for (let at = ROW_OF_KIND[kind]; at < this.counts.length; at += KINDS) if (Atomics.load(this.counts, at) > 0) return true
    return false
  }
}

export class SubscriptionHub {
  private readonly connections = new Set<SubscriberConnection>()
  private readonly counts: Record<Subscription['kind'], number> = { newHeads: 0, logs: 0, newPendingTransactions: 0 }

  constructor(
    private readonly store: ChainStore,
    /** A serving thread's: its place in the counts it shares with the main thread. */
    private readonly shared?: { counts: SubscriberCounts; row: number },
  ) {}

  connect(send: (text: string) => boolean): SubscriberConnection {
    const c = new SubscriberConnection(this, send)
    this.connections.add(c)
    return c
  }

  disconnect(c: SubscriberConnection): void {
    this.connections.delete(c)
  }

  count(kind: Subscription['kind'], delta: number): void {
    this.counts[kind] += delta
    this.shared?.counts.add(this.shared.row, kind === 'newPendingTransactions' ? 'pending' : 'chain', delta)
  }

  /**
   * The canonical chain changed: `removed` blocks left it, `added` joined it, both ascending (geth too sends removed
   * logs oldest first).
   */
  canonicalChanged(added: Uint8Array[], removed: Uint8Array[]): void {
    if (this.counts.newHeads > 0) {
      for (const hash of added) {
        const prefix = this.store.getBlockJson(hash)
        if (prefix === undefined) continue
        const header = JSON.stringify(headerJson(prefix))
        this.push('newHeads', () => header)
      }
    }
    if (this.counts.logs > 0) {
      for (const c of this.connections) {
        for (const [id, sub] of c.subs) {
          if (sub.kind !== 'logs') continue
          const gone = removed.length === 0 ? [] : this.logs(removed, sub.criteria, true)
          const fresh = added.length === 0 ? [] : this.logs(added, sub.criteria, false)
          for (const log of [...gone, ...fresh]) if (!c.send(notification(id, log))) break
        }
      }
    }
  }

  pendingTransaction(hash: string): void {
    if (this.counts.newPendingTransactions > 0) this.push('newPendingTransactions', () => `"${hash}"`)
  }

  private push(kind: Subscription['kind'], result: () => string): void {
    let text: string | undefined
    for (const c of this.connections) {
      for (const [id, sub] of c.subs) {
        if (sub.kind !== kind) continue
        text ??= result()
        c.send(notification(id, text))
      }
    }
  }

  /** Each matching log's JSON, in order. */
  private logs(blocks: Uint8Array[], criteria: LogCriteria, removed: boolean): string[] {
    return (matchingLogs(this.store, { blockHashes: blocks }, criteria, MAX_LOGS_PER_EVENT, removed) ?? []).map((b) => utf8.decode(b))
  }
}

function notification(id: string, result: string): string {
  return `{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"${id}","result":${result}}}`
}
