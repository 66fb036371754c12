import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'

/**
 * The rule "a serving thread never answers from a head older than one another thread already answered": the highest
 * head number any thread has answered from, in memory every serving thread shares. Before a request, a thread whose
 * LMDB snapshot is below it takes a fresh snapshot (lmdb-js otherwise keeps one until its own timer renews it), then
 * raises the floor to what it reads.
 *
 * A reorg to a shorter chain leaves the floor above the head; each request then takes a fresh snapshot until the
 * chain grows past it again (correct, and slower meanwhile). The plan (docs/design.md, "Serving threads") replaces
 * the number by a commit sequence the writer stores with the head.
 */
export class HeadFloor {
  private readonly floor: BigInt64Array

  constructor(shared: SharedArrayBuffer) {
    this.floor = new BigInt64Array(shared)
  }

  static shared(): SharedArrayBuffer {
    return new SharedArrayBuffer(BigInt64Array.BYTES_PER_ELEMENT)
  }

  /** Raises the floor to `head` (the writer's, once a head it wrote is committed: what it answers next is on it). */
  raise(head: bigint): void {
    let floor = Atomics.load(this.floor, 0)
    while (head > floor) {
      const seen = Atomics.compareExchange(this.floor, 0, floor, head)
      if (seen === floor) break
      floor = seen
    }
  }

  /** Makes this thread's next reads see at least the highest head answered anywhere, and records its own. */
  keep(store: ChainStore, chain: ChainReader): void {
    let head = chain.headNumber()
    if (head < Atomics.load(this.floor, 0)) {
      store.refreshSnapshot()
      head = chain.headNumber()
    }
    this.raise(head)
  }
}
