import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import { InternalError, LimitExceededError, RpcError, ServerError } from '../rpc/errors.js'
import type { Task, TaskMap, TaskName, TaskOutcome, WorkerInit } from './tasks.js'

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

/** The Piscina pool that executes and builds blocks and reads state off the serving thread. */
export class WorkerPool {
  private readonly piscina: Piscina<Task, TaskOutcome<unknown>>

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

  /** Runs a task; failures come back as RpcErrors (-32000 for a rejected transaction, -32603 otherwise). */
  async run<K extends TaskName>(task: Extract<Task, { op: K }>): Promise<TaskMap[K]['out']> {
    if (this.piscina.queueSize >= this.piscina.options.maxQueue) throw new LimitExceededError()
    const outcome = await this.piscina.run(task)
    if (outcome.ok) return outcome.value as TaskMap[K]['out']
    throw outcomeError(outcome)
  }

  get queueSize(): number {
    return this.piscina.queueSize
  }

  /** Lets running and queued tasks finish, then stops the threads. */
  close(): Promise<void> {
    return this.piscina.close()
  }
}

function outcomeError(o: Extract<TaskOutcome<unknown>, { ok: false }>): RpcError {
  switch (o.kind) {
    case 'txRejected':
      return new ServerError(o.message)
    case 'unknownParent':
      return new PoolTaskError('unknownParent', o.message)
    case 'other':
      return new InternalError(o.message.split('\n')[0])
  }
}

/** A worker failure the caller may want to tell apart (by kind, never by message). */
export class PoolTaskError extends RpcError {
  constructor(
    readonly kind: 'unknownParent',
    message: string,
  ) {
    super(-32603, message)
  }
}
