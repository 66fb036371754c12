// Where a block's time goes, by phase: what /metrics reports as sponge_block_phase_seconds_total and bench:exec
// prints per workload. Off unless the node keeps metrics (enableBlockPhases in the engine's workers): the hot path
// then pays one read of `blockPhases` and a branch per timed stretch. On, a block pays a few clock reads per
// transaction and two per state read that misses the warm caches.
//
// Each stretch is timed exclusively: time spent in a phase timed inside another (a state read during execution,
// the store's trie-node loads during the commit are the commit's own) is the inner phase's only. The engine worker
// sums a block's phases locally and adds them, with the block, to nanosecond counters in memory shared with the
// serving thread, which reads them at each scrape.

export const PHASES = ['senders', 'execution', 'stateReads', 'receipts', 'commit', 'record', 'store', 'other'] as const
export type PhaseName = (typeof PHASES)[number]

export enum Phase {
  /** Sender recovery left to the block's own thread, and the senders' addresses. */
  senders = 0,
  /** The EVM's transactions, system calls, withdrawals and requests, less the other phases timed within them. */
  execution = 1,
  /** Accounts, slots, code and storage roots read from the store (the flat table or the tries) past the warm caches. */
  stateReads = 2,
  /** Each receipt's encoding and bloom, the receipts root. */
  receipts = 3,
  /** The state root of the block's changes: trie nodes loaded, rewritten and hashed, the flat table's change list. */
  commit = 4,
  /** What the store keeps of the block besides its state: the transactions' and receipts' stored replies. */
  record = 5,
  /** The block's LMDB write transaction. */
  store = 6,
  /** The rest of newPayload in the worker: the payload decoded into a block and hashed, header and body checks. */
  other = 7,
}

const COUNT = PHASES.length
/** Shared layout: BigInt64 nanoseconds per phase, then the count of blocks. */
export const BLOCK_PHASES_BYTES = 8 * (COUNT + 1)

export class BlockPhases {
  private readonly local = new Float64Array(COUNT)
  /** Milliseconds given to any phase since the block began: what an enclosing stretch leaves out of its own. */
  private accounted = 0
  private readonly shared: BigInt64Array

  constructor(buffer: SharedArrayBuffer) {
    this.shared = new BigInt64Array(buffer)
  }

  /** A block begins: what earlier work (a build, a call) left in the local sums is dropped. */
  begin(): void {
    this.local.fill(0)
    this.accounted = 0
  }

  /** A mark for `end`: the time now and what is accounted. */
  mark(): Mark {
    return { at: performance.now(), accounted: this.accounted }
  }

  /** The stretch since `m` goes to `phase`, less what phases timed inside it took. */
  end(phase: Phase, m: Mark): void {
    const own = performance.now() - m.at - (this.accounted - m.accounted)
    this.local[phase]! += own
    this.accounted += own
  }

  /** `ms` measured outside a mark (a state read timed around one call). */
  add(phase: Phase, ms: number): void {
    this.local[phase]! += ms
    this.accounted += ms
  }

  /**
   * The block is done, `totalMs` after it began: what no phase took is `other`, and the sums go to the shared
   * counters. A newPayload that executed nothing (known, invalid before execution, its parent missing) is not counted.
   */
  finish(totalMs: number): void {
    if (this.local[Phase.commit] === 0) return
    this.local[Phase.other]! += Math.max(0, totalMs - this.accounted)
    for (let p = 0; p < COUNT; p++) Atomics.add(this.shared, p, BigInt(Math.round(this.local[p]! * 1e6)))
    Atomics.add(this.shared, COUNT, 1n)
  }
}

export interface Mark {
  at: number
  accounted: number
}

/** This thread's phase clock: undefined unless the node keeps metrics. */
export let blockPhases: BlockPhases | undefined

export function enableBlockPhases(buffer: SharedArrayBuffer): void {
  blockPhases = new BlockPhases(buffer)
}

/** The shared counters as the serving thread reads them: seconds per phase, and blocks. */
export function readBlockPhases(buffer: SharedArrayBuffer): { seconds: Record<PhaseName, number>; blocks: number } {
  const shared = new BigInt64Array(buffer)
  const seconds = {} as Record<PhaseName, number>
  PHASES.forEach((name, p) => {
    seconds[name] = Number(Atomics.load(shared, p)) / 1e9
  })
  return { seconds, blocks: Number(Atomics.load(shared, COUNT)) }
}
