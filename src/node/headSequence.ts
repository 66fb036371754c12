import type { ChainStore } from '../store/chainStore.js'

/**
 * The rule "a serving thread never answers from a head older than one another thread already answered": a counter in
 * memory every serving thread shares, advanced by the writer once it has committed a forkchoice (a new head, a reorg,
 * a safe or finalized block). lmdb-js keeps a thread's read snapshot until a zero timer after its first read, so a
 * thread answering the requests of one event-loop pass (uWS hands it every socket that was readable) would answer
 * those after the commit from the snapshot before it; before each request, a thread that has not seen the latest
 * count takes a fresh snapshot, which holds that commit. One atomic load a request when nothing moved; a reorg to a
 * lower number is a count like any other.
 *
 * lmdb-js may renew a snapshot between the writer's commit and its advance (the same synchronous run on the writer's
 * thread): the thread that renewed answers the new head a moment before the others are told to, never after.
 *
 * A node's writer also counts once before each forkchoice write (`beginWrite`), so the count is odd while one may be
 * under way and even once it has ended: an even count a thread has seen, and still sees, says the head, the
 * canonical chain and the flat table are as its last check of them found (`stableCount`). A reader's main thread
 * only advances (it learns of the node's writes after them), and its threads do not use the count that way.
 */
export class HeadSequence {
  private readonly count: Int32Array
  /** The count this thread's snapshot holds. */
  private seen: number

  constructor(shared: SharedArrayBuffer) {
    this.count = new Int32Array(shared)
    this.seen = Atomics.load(this.count, 0)
  }

  static shared(): SharedArrayBuffer {
    return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)
  }

  /** The writer, before a forkchoice write begins: the count goes odd until `advance`. */
  beginWrite(): void {
    Atomics.add(this.count, 0, 1)
  }

  /** The writer, after a forkchoice's commit: what any thread answers next is on it. */
  advance(): void {
    Atomics.add(this.count, 0, 1)
  }

  /**
   * The count this thread's snapshot holds, as `keep` last saw it, when no write was under way then (even); else
   * undefined. Equal at two `keep`s, no forkchoice was written between them, where the writer brackets its writes.
   */
  stableCount(): number | undefined {
    return (this.seen & 1) === 0 ? this.seen : undefined
  }

  /** Makes this thread's next reads see every forkchoice the writer has committed. */
  keep(store: ChainStore): void {
    const count = Atomics.load(this.count, 0)
    if (count === this.seen) return
    // The count is read before the snapshot is taken: the snapshot holds at least that commit.
    store.refreshSnapshot()
    this.seen = count
  }
}
