import type { WorkerPool } from '../workers/pool.js'
import type { TaskName } from '../workers/tasks.js'

// Helpers for tests of a lane's admission and time limits in a node started in the test's own process
// (startTestNode): they wait on what the lane does, never on time.

/**
 * Resolves once `pool` is handed a task of `op` and the turn's admission has run (the lane admits or refuses the
 * calls of one turn together, in a microtask queued before this resolves). The task's deadline, if it has a time
 * limit, is fixed from then on. The lane works as before; only the next such task is watched.
 */
export function laneTakes(pool: WorkerPool, op: TaskName): Promise<void> {
  const runAs = pool.runAs
  return new Promise((resolve) => {
    pool.runAs = function (this: WorkerPool, client, task, opts) {
      const out = runAs.call(this, client, task, opts)
      if (task.op === op) {
        pool.runAs = runAs
        resolve()
      }
      return out
    } as WorkerPool['runAs']
  })
}

/**
 * This thread's Date.now(), moved forward on request. The lane's watchdog compares it with the deadlines of
 * time-limited calls (set from it when the call is taken): moving it past a call's deadline lets the call's time
 * run out without waiting for it, so a test of the time limit can give ordinary calls a limit no machine comes near.
 * Worker threads keep the real clock (a call they start is never taken for late). `restore()` puts Date.now back.
 */
export function movableClock(): { pass(ms: number): void; restore(): void } {
  const real = Date.now
  let offset = 0
  Date.now = () => real() + offset
  return {
    pass: (ms) => {
      offset += ms
    },
    restore: () => {
      Date.now = real
    },
  }
}

/**
 * Records the ops of every task `pool` finishes, until `stop()`: a test's way to see which reads went to a worker.
 * The pool's own observer (metrics) still hears each task.
 */
export function laneOps(pool: WorkerPool): { ops: TaskName[]; stop(): void } {
  const ops: TaskName[] = []
  const before = pool.onTaskDone
  pool.onTaskDone = (taskOps, seconds) => {
    ops.push(...taskOps)
    before?.(taskOps, seconds)
  }
  return {
    ops,
    stop: () => {
      pool.onTaskDone = before
    },
  }
}
