import { syncRunId } from '../util/syncRun.js'
import type { ChainStoreReads } from './chainStore.js'

/**
 * When a check made against this thread's read snapshot (is the flat table at the head? is the head where the kept
 * replies were read?) still holds without being made again: the snapshot has not changed since (ChainStore's
 * snapshotEpoch), and either the check was made in the same synchronous run (util/syncRun.ts: lmdb-js's zero timer,
 * which may end a snapshot unseen, cannot fire within one; and a batch, answered in one run, reads one snapshot), or
 * the thread pins its snapshots (a serving thread, which ends its snapshot itself after each pass of requests that
 * began one, and whenever the head it must answer moves: ChainStore.pinSnapshots). A single read on a serving thread
 * then checks once a pass, not once a request (two LMDB reads, ~1.4 µs of a ~5 µs eth_getBalance in-process).
 *
 * On a node's serving thread the check holds across passes too, while no forkchoice has been written since
 * (ChainStore.headGeneration): the head, the canonical chain and the flat table change only in those writes. That
 * check was ~2–3% of a serving thread's CPU under single reads at 64 connections (docs/performance.md).
 */
export class SnapshotStamp {
  private run = 0
  private epoch = -1
  private generation: number | undefined

  constructor(private readonly store: ChainStoreReads) {}

  /** Whether the check stamped last still holds. */
  holds(): boolean {
    // Within the run it was made in, against the same snapshot: a batch's answers all come from one snapshot.
    const run = syncRunId()
    if (run !== 0 && run === this.run && this.store.snapshotEpoch === this.epoch) return true
    // On a thread that pins its snapshots, once the snapshot is at the head the thread must answer (which may end it).
    if (!this.store.keepPinnedSnapshot()) return false
    if (this.store.snapshotEpoch === this.epoch) return true
    const generation = this.store.headGeneration()
    return generation !== undefined && generation === this.generation
  }

  /** Stamps a check just made: after its reads, since a read that began a snapshot moved the epoch. */
  stamp(): void {
    this.run = syncRunId()
    this.epoch = this.store.snapshotEpoch
    this.generation = this.store.headGeneration()
  }
}
