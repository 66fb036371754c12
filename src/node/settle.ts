import { performance } from 'node:perf_hooks'
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** How often the serving thread's busy share is looked at, ms. */
const CHECK_MS = 3_000
/** Below this share of the event loop's time busy, a check's span was quiet. */
const QUIET = 0.02
/** Quiet checks in a row before the collection: V8 shrinks the young generation only after ~5 s of little allocation. */
const QUIET_CHECKS = 2
/** Collections tried in one quiet spell, a check apart, until the young generation is back to its start-up size. */
const TRIES = 3
/** The young generation (both semi-spaces) V8 starts with, and shrinks back to: 2 MiB. */
const SETTLED_YOUNG_BYTES = 2 * 1024 * 1024

/**
 * A full collection each time the serving thread goes quiet after work (start-up counts). Start-up and load grow its
 * young generation to 32 MiB and leave old-space garbage, and V8 collects only when something allocates: its own idle
 * collection (the memory reducer) came at its 100 s watchdog, ~90 s after the node started, and took the heap from 55
 * to 25 MiB committed. A full collection after a few quiet seconds does the same (V8 shrinks the young generation at a
 * full collection when little was allocated lately) for a ~50 ms pause while nothing waits; a thread busy again (2%
 * of its time) is collected again when next quiet. Not in workers: there a full collection grew the young generation.
 * Returns the function that stops it.
 */
export function settleWhenQuiet(): () => void {
  const collect = fullCollection()
  let last = performance.eventLoopUtilization()
  let quietChecks = 0
  let settled = false
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization()
    const busy = performance.eventLoopUtilization(now, last).utilization
    last = now
    if (busy >= QUIET) {
      quietChecks = 0
      settled = false
    } else if (++quietChecks >= QUIET_CHECKS && !settled) {
      // Too soon after allocation V8 keeps the young generation as it is: again at the next check.
      collect()
      settled = youngGenerationBytes() <= SETTLED_YOUNG_BYTES || quietChecks >= QUIET_CHECKS + TRIES - 1
    }
  }, CHECK_MS).unref()
  return () => clearInterval(timer)
}

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0
}

/** V8's full collection, which Node exposes only under --expose-gc: taken from a context made while the flag is on. */
function fullCollection(): () => void {
  if (globalThis.gc !== undefined) return globalThis.gc
  setFlagsFromString('--expose-gc')
  try {
    return runInNewContext('gc') as () => void
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
}
