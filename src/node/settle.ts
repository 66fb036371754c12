import { performance } from 'node:perf_hooks'
import { fullCollection } from '../util/fullCollection.js'

/** How often the serving thread's busy share is looked at, ms. */
const CHECK_MS = 1_500
/** Below this share of the event loop's time busy, a check's span was quiet. */
const QUIET = 0.02
/**
 * The quiet checks of a spell at which the threads are collected: the first once the thread is quiet, the second 6 s
 * later (a dev node is settled ~10 s after it started). V8 shrinks a young generation at a full collection only when little was allocated over the last 5 s, and
 * counts that from its last sample of allocation, taken at a collection: the first collection takes it.
 */
const COLLECT_AT = [1, 5]

/**
 * Full collections each time the serving thread goes quiet after work (start-up counts), in it and through `workers`
 * in the engine's worker threads. Start-up and load grow their young generations (32 MiB the serving thread's, 16–32 a
 * worker's) and leave old-space garbage, and V8 collects only when something allocates: its own idle collection (the
 * memory reducer) came at its 100 s watchdog, ~90 s after the node started, and only in the serving thread (a worker
 * waits for tasks in Atomics.wait, where no timer of V8's runs). Two collections 6 s apart in a quiet spell do the same
 * in ~10 s, for a ~50–100 ms pause each while nothing waits (docs/performance.md, "Idle memory"); a thread busy again
 * (2% of its time) is collected again when next quiet. Returns the function that stops it.
 */
export function settleWhenQuiet(workers: () => void): () => void {
  const collect = fullCollection()
  let last = performance.eventLoopUtilization()
  let quietChecks = 0
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization()
    const busy = performance.eventLoopUtilization(now, last).utilization
    last = now
    if (busy >= QUIET) quietChecks = 0
    else if (COLLECT_AT.includes(++quietChecks)) {
      collect()
      workers()
      // The collection's own pause is not work: the next span starts after it.
      last = performance.eventLoopUtilization()
    }
  }, CHECK_MS).unref()
  return () => clearInterval(timer)
}
