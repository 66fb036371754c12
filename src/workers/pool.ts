import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import { TxRejectedError, UnknownParentError } from '../exec/errors.js'
import type { SingleTask, Task, TaskMap, TaskName, TaskOutcome, WorkerInit } from './tasks.js'

export interface LaneOptions {
  /** For logs and metrics: 'engine' or 'public'. */
  name: string
  threads: number
  /**
   * Calls admitted and not yet answered, at most; a group of calls that would pass it is refused whole with
   * PoolBusyError, at once, instead of waiting in a growing queue. Undefined: never refused (the engine lane).
   */
  maxInFlight?: number
}

/** The lane is full: the caller may retry later (JSON-RPC -32005). */
export class PoolBusyError extends Error {
  override readonly name = 'PoolBusyError'
  constructor(lane: string) {
    super(`${lane} request queue is full, try again later`)
  }
}

/** A task ran past its time and was stopped (its worker thread is replaced). */
export class TaskTimeoutError extends Error {
  override readonly name = 'TaskTimeoutError'
  constructor(readonly timeoutMs: number) {
    super(`execution aborted (timeout = ${timeoutMs / 1000}s)`)
  }
}

/** A task failed in the worker for a reason of the node's (a bug, a store failure): JSON-RPC -32603. */
export class WorkerTaskError extends Error {
  override readonly name = 'WorkerTaskError'
}

export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1)
}

// Resolves to dist/workers/worker.js from both src/workers (tests) and dist/workers (the built node).
const WORKER_FILE = new URL('../../dist/workers/worker.js', import.meta.url).href

interface Pending {
  task: SingleTask
  resolve: (value: unknown) => void
  reject: (e: Error) => void
}

export interface LaneStats {
  /** Calls admitted and not yet answered. */
  inFlight: number
  /** Calls refused since start. */
  refused: number
}

/**
 * A Piscina pool of workers that execute and build blocks and read state off the serving thread. The calls made in
 * one turn of the event loop (a JSON-RPC batch, say) travel together: they are admitted or refused as a group and
 * sent as one task per worker, so a batch of 100 state reads costs a few round trips, not a hundred.
 */
export class WorkerPool {
  private readonly piscina: Piscina<Task, TaskOutcome<unknown>[]>
  private group: Pending[] = []
  private inFlightCalls = 0
  private refusedCalls = 0
  /** Task time observer (metrics): the lane, the ops of one task, and its duration in seconds. */
  onTaskDone: ((ops: TaskName[], seconds: number) => void) | undefined

  constructor(
    init: WorkerInit,
    private readonly opts: LaneOptions,
  ) {
    this.piscina = new Piscina({
      filename: WORKER_FILE,
      workerData: init,
      minThreads: opts.threads,
      maxThreads: opts.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
    })
  }

  get name(): string {
    return this.opts.name
  }

  get threads(): number {
    return this.opts.threads
  }

  /**
   * Runs a task in a worker; failures come back as the domain errors they were (TxRejectedError, …). A task with a
   * time limit travels alone: stopping it stops its worker thread, which Piscina replaces.
   */
  run<K extends TaskName>(task: Extract<SingleTask, { op: K }>, opts: { timeoutMs?: number } = {}): Promise<TaskMap[K]['out']> {
    if (opts.timeoutMs !== undefined) return this.runAlone(task, opts.timeoutMs) as Promise<TaskMap[K]['out']>
    return new Promise((resolve, reject) => {
      if (this.group.length === 0) queueMicrotask(() => this.flush())
      this.group.push({ task, resolve: resolve as (v: unknown) => void, reject })
    })
  }

  /** Whether `calls` more would be admitted now (the envelope asks before running a body's handlers). */
  canAdmit(calls: number): boolean {
    const max = this.opts.maxInFlight
    return max === undefined || this.inFlightCalls === 0 || this.inFlightCalls + this.group.length + calls <= max
  }

  /**
   * Three quarters of the lane's calls are in flight: the front end stops reading new bodies on its port until it
   * drains (HTTP 503), which keeps a flood's refusals from taking the CPU the workers need.
   */
  get saturated(): boolean {
    const max = this.opts.maxInFlight
    return max !== undefined && this.inFlightCalls >= (max * 3) / 4
  }

  get stats(): LaneStats {
    return { inFlight: this.inFlightCalls, refused: this.refusedCalls }
  }

  private async runAlone(task: SingleTask, timeoutMs: number): Promise<unknown> {
    const max = this.opts.maxInFlight
    if (max !== undefined && this.inFlightCalls > 0 && this.inFlightCalls + 1 > max) {
      this.refusedCalls++
      throw new PoolBusyError(this.opts.name)
    }
    this.inFlightCalls++
    const started = performance.now()
    let outcomes: TaskOutcome<unknown>[]
    try {
      outcomes = await this.piscina.run(task, { signal: AbortSignal.timeout(timeoutMs) })
    } catch (e) {
      // Piscina rejects an aborted task with an AbortError (and stops the worker that was running it).
      throw e instanceof Error && e.name === 'AbortError' ? new TaskTimeoutError(timeoutMs) : new WorkerTaskError(String(e))
    } finally {
      this.inFlightCalls--
      this.onTaskDone?.([task.op], (performance.now() - started) / 1000)
    }
    const outcome = outcomes[0]
    if (outcome === undefined) throw new WorkerTaskError('worker returned no outcome')
    if (!outcome.ok) throw outcomeError(outcome)
    return outcome.value
  }

  private flush(): void {
    const group = this.group
    this.group = []
    const max = this.opts.maxInFlight
    // A group larger than the whole lane still runs when the lane is idle, or it could never run.
    if (max !== undefined && this.inFlightCalls > 0 && this.inFlightCalls + group.length > max) {
      // Callers that asked canAdmit first never get here: this is for work started outside a request.
      this.refusedCalls += group.length
      const busy = new PoolBusyError(this.opts.name)
      for (const p of group) p.reject(busy)
      return
    }
    this.inFlightCalls += group.length
    const per = Math.ceil(group.length / this.opts.threads)
    for (let i = 0; i < group.length; i += per) this.send(group.slice(i, i + per))
  }

  private send(part: Pending[]): void {
    const started = performance.now()
    const task: Task = part.length === 1 ? part[0]!.task : { op: 'many', tasks: part.map((p) => p.task) }
    this.piscina.run(task).then(
      (outcomes) => {
        this.inFlightCalls -= part.length
        this.onTaskDone?.(part.map((p) => p.task.op), (performance.now() - started) / 1000)
        part.forEach((p, i) => {
          const o = outcomes[i]
          if (o === undefined) p.reject(new WorkerTaskError('worker returned no outcome'))
          else if (o.ok) p.resolve(o.value)
          else p.reject(outcomeError(o))
        })
      },
      (e: unknown) => {
        this.inFlightCalls -= part.length
        const err = new WorkerTaskError(e instanceof Error ? e.message : String(e))
        for (const p of part) p.reject(err)
      },
    )
  }

  /** Lets running and queued tasks finish, then stops the threads. */
  close(): Promise<void> {
    return this.piscina.close()
  }
}

function outcomeError(o: Extract<TaskOutcome<unknown>, { ok: false }>): Error {
  switch (o.kind) {
    case 'txRejected':
      return new TxRejectedError(o.message)
    case 'unknownParent':
      return new UnknownParentError(o.message)
    case 'other':
      return new WorkerTaskError(o.message.split('\n')[0])
  }
}

/** The two lanes: engine work never waits behind, nor is refused for, public load. */
export interface Lanes {
  engine: WorkerPool
  public: WorkerPool
}
