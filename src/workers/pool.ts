import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import { LimitExceededError } from '../rpc/errors.js'
import type { Task, TaskResult, WorkerInit } from './tasks.js'

export interface PoolOptions {
  threads: number
  /** Tasks waiting beyond the running ones; past it, callers get LimitExceededError instead of a longer queue. */
  maxQueue: number
}

export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1)
}

// Resolves to dist/workers/worker.js from both src/workers (tests) and dist/workers (the built node).
const WORKER_FILE = new URL('../../dist/workers/worker.js', import.meta.url).href

/** The Piscina pool that executes blocks and reads state off the serving thread. */
export class WorkerPool {
  private readonly piscina: Piscina<Task, TaskResult>

  constructor(init: WorkerInit, opts: PoolOptions) {
    this.piscina = new Piscina({
      filename: WORKER_FILE,
      workerData: init,
      minThreads: opts.threads,
      maxThreads: opts.threads,
      maxQueue: opts.maxQueue,
      idleTimeout: Number.POSITIVE_INFINITY,
    })
  }

  run(task: Task): Promise<TaskResult> {
    if (this.piscina.queueSize >= this.piscina.options.maxQueue) {
      return Promise.reject(new LimitExceededError())
    }
    return this.piscina.run(task)
  }

  get queueSize(): number {
    return this.piscina.queueSize
  }

  get threads(): number {
    return this.piscina.threads.length
  }

  close(): Promise<void> {
    return this.piscina.destroy()
  }
}
