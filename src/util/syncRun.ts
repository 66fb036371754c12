/**
 * A run of synchronous work that says so: `fn` runs without yielding to the event loop (what it starts and awaits
 * finishes outside the run). lmdb-js keeps a thread's read snapshot from the first read until a timer of a later
 * turn, or until this thread writes: reads made in one run see one snapshot unless the store wrote in between
 * (ChainStore.snapshotEpoch counts that), so a check they would each repeat may be made once per run. A batch of
 * state reads runs in one (rpc/envelope.ts); state/flatStateReader.ts keeps its head check for the run.
 */
let current = 0
let last = 0

export function syncRun<T>(fn: () => T): T {
  // Nested: the outer run holds.
  if (current !== 0) return fn()
  current = ++last
  try {
    return fn()
  } finally {
    current = 0
  }
}

/** The run in progress, 0 outside any. */
export function syncRunId(): number {
  return current
}
