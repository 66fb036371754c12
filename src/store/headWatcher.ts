import { type FSWatcher, watch } from 'node:fs'
import { join } from 'node:path'
import type { BlockRef } from './chainReader.js'
import { CHAIN_FILE, type ChainStore } from './chainStore.js'
import { HeaderView } from './headerView.js'
import { equalBytes } from '../util/hex.js'

/** A canonical chain change: the blocks that left it and joined it, each ascending, and the new head. */
export interface HeadChange {
  head: BlockRef
  added: Uint8Array[]
  removed: Uint8Array[]
}

/** The looks again after an event that found no new head, ms after the one before. */
const SETTLE_MS = [1, 4, 16, 64] as const

/** The most blocks one change lists (a reader that slept through more gets the newest of them). */
const MAX_CHANGE_BLOCKS = 1024

/**
 * A reader's knowledge of the node's head, learnt from the store itself: the `head` label, read in a fresh LMDB
 * snapshot whenever the data file is written (fs.watch: inotify sees the node's writes, which LMDB makes with
 * pwrite) and at least every `pollMs` (a filesystem without events, or an event coalesced away). LMDB makes the head
 * and the canonical index one transaction, so a change is read whole.
 *
 * A commit's last write to the file is its meta page; only then does LMDB publish the transaction's id, in the lock
 * file's shared memory, which raises no event — and a snapshot begun before that sees the old head. So an event
 * whose check finds nothing new is looked at again a moment later (SETTLE_MS), a few times; measured, a fifth of the
 * heads otherwise waited for the poll.
 */
export class HeadWatcher {
  private current: BlockRef
  private watcher: FSWatcher | undefined
  private timer: NodeJS.Timeout | undefined
  /** The check after a burst of file events, until it runs: stop() cancels it (the store may be closed next). */
  private scheduled: NodeJS.Immediate | undefined
  private settleTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly store: ChainStore,
    private readonly onChange: (change: HeadChange) => void,
    private readonly opts: { pollMs: number; onWatchError?: (e: Error) => void },
  ) {
    this.current = readHead(store)
  }

  /** The head last taken in. */
  get head(): BlockRef {
    return this.current
  }

  start(): void {
    try {
      this.watcher = watch(join(this.store.datadir, CHAIN_FILE), { persistent: false }, () => this.schedule())
      this.watcher.on('error', (e) => {
        this.watcher?.close()
        this.watcher = undefined
        this.opts.onWatchError?.(e)
      })
    } catch (e) {
      // No inotify watch to be had (the system's limit): the poll alone bounds the lag.
      this.opts.onWatchError?.(e as Error)
    }
    this.timer = setInterval(() => this.check(), this.opts.pollMs)
    this.timer.unref()
  }

  stop(): void {
    this.watcher?.close()
    this.watcher = undefined
    clearInterval(this.timer)
    clearTimeout(this.settleTimer)
    clearImmediate(this.scheduled)
    this.scheduled = undefined
  }

  /** Reads the head now; a new one is handed to onChange with the blocks between. Whether there was one. */
  check(): boolean {
    this.store.refreshSnapshot()
    const head = readHead(this.store)
    if (equalBytes(head.hash, this.current.hash)) return false
    const change = canonicalChange(this.store, this.current, head)
    this.current = head
    this.onChange(change)
    return true
  }

  /** Many events come with one commit: one check after them, and the looks again while it finds nothing new. */
  private schedule(): void {
    if (this.scheduled !== undefined) return
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined
      if (!this.check()) this.settle(0)
    })
  }

  private settle(step: number): void {
    const delay = SETTLE_MS[step]
    if (delay === undefined) return
    clearTimeout(this.settleTimer)
    this.settleTimer = setTimeout(() => {
      this.settleTimer = undefined
      if (!this.check()) this.settle(step + 1)
    }, delay)
    this.settleTimer.unref()
  }
}

function readHead(store: ChainStore): BlockRef {
  const hash = store.getLabel('head')
  if (hash === undefined) throw new Error(`the store in ${store.datadir} has no head`)
  return { hash, number: store.getNumber(hash)! }
}

/** The blocks between two heads: both walked back by their parents to the block they share. */
export function canonicalChange(store: ChainStore, from: BlockRef, to: BlockRef): HeadChange {
  const added: Uint8Array[] = []
  const removed: Uint8Array[] = []
  let a = to
  let r = from
  const parent = (b: BlockRef): BlockRef | undefined => {
    const h = HeaderView.read(store, b.hash)
    return h === undefined || b.number === 0n ? undefined : { hash: h.parentHash, number: b.number - 1n }
  }
  while (added.length + removed.length < 2 * MAX_CHANGE_BLOCKS) {
    if (a.number === r.number && equalBytes(a.hash, r.hash)) break
    if (a.number >= r.number) {
      added.push(a.hash)
      const p = parent(a)
      if (p === undefined) break
      a = p
    } else {
      removed.push(r.hash)
      const p = parent(r)
      if (p === undefined) break
      r = p
    }
  }
  added.reverse()
  removed.reverse()
  return { head: to, added: added.slice(-MAX_CHANGE_BLOCKS), removed: removed.slice(-MAX_CHANGE_BLOCKS) }
}
