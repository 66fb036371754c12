import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import { createDeadlineBuffer, threadsToStop } from './deadlines.js'
import { PoolBusyError, TaskTimeoutError, WorkerTaskError, rebuiltError } from './errors.js'
import type { Batch, SingleTask, TaskMap, TaskName, TaskOutcome, WorkerInit } from './tasks.js'

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

export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1)
}

// Resolves to dist/workers/worker.js from both src/workers (tests) and dist/workers (the built node).
const WORKER_FILE = new URL('../../dist/workers/worker.js', import.meta.url).href

/** How often the watchdog looks for calls past their deadline, while any are admitted. */
const WATCH_MS = 25

interface Pending {
  task: SingleTask
  resolve: (value: unknown) => void
  reject: (e: Error) => void
  /** Date.now() by which the call must be answered (its time limit counts its wait, as geth's does); 0: none. */
  deadline: number
  timeoutMs: number
  /** Sent again once already, after the worker running it died for another call. */
  retried: boolean
}

/** Whether a call's time limit has run out by `now`. */
function expired(p: Pending, now: number): boolean {
  return p.deadline !== 0 && now >= p.deadline
}

export interface LaneStats {
  /** Calls admitted and not yet answered. */
  inFlight: number
  /** Calls refused since start. */
  refused: number
}

/**
 * A Piscina pool of workers that execute and build blocks and read state off the serving thread. The calls made in
 * one turn of the event loop (a JSON-RPC batch, say) are admitted or refused as a group; calls wait here while every
 * worker is busy, and a worker that finishes takes all that waited (its share, when several are free) as one task —
 * so under load a round trip between threads carries many calls, and a batch of 100 state reads costs a few.
 * Time-limited calls (eth_call and its kin) travel the same way: a worker skips a call whose deadline passed while
 * it waited, and the watchdog stops a worker whose running call passes its deadline; the other calls of that task
 * are sent again.
 */
export class WorkerPool {
  private readonly piscina: Piscina<Batch, TaskOutcome<unknown>[]>
  private readonly deadlines = createDeadlineBuffer()
  private group: Pending[] = []
  /** Admitted, not yet sent to a worker. */
  private waiting: Pending[] = []
  private tasksInFlight = 0
  private inFlightCalls = 0
  private timedInFlight = 0
  private refusedCalls = 0
  private watchdog: NodeJS.Timeout | undefined
  /** close() waiting for what was admitted to be answered. */
  private drained: (() => void) | undefined
  /** Task time observer (metrics): the lane, the ops of one task, and its duration in seconds. */
  onTaskDone: ((ops: TaskName[], seconds: number) => void) | undefined

  constructor(
    init: WorkerInit,
    private readonly opts: LaneOptions,
  ) {
    this.piscina = new Piscina({
      filename: WORKER_FILE,
      workerData: { ...init, deadlines: this.deadlines },
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
   * Runs a task in a worker; failures come back as the domain errors they were (TxRejectedError, …). With a time
   * limit, a task not answered within it fails with TaskTimeoutError (its worker stopped if it was running it).
   */
  run<K extends TaskName>(task: Extract<SingleTask, { op: K }>, opts: { timeoutMs?: number } = {}): Promise<TaskMap[K]['out']> {
    return new Promise((resolve, reject) => {
      if (this.group.length === 0) queueMicrotask(() => this.flush())
      const timeoutMs = opts.timeoutMs ?? 0
      this.group.push({
        task,
        resolve: resolve as (v: unknown) => void,
        reject,
        deadline: timeoutMs > 0 ? Date.now() + timeoutMs : 0,
        timeoutMs,
        retried: false,
      })
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
    for (const p of group) if (p.deadline !== 0) this.timedInFlight++
    this.waiting.push(...group)
    if (this.timedInFlight > 0) this.watchdog ??= setInterval(() => this.watch(), WATCH_MS).unref()
    this.pump()
  }

  /** Sends what waits to the free workers, an equal share each. */
  private pump(): void {
    const free = this.opts.threads - this.tasksInFlight
    if (free <= 0 || this.waiting.length === 0) return
    const per = Math.ceil(this.waiting.length / free)
    while (this.tasksInFlight < this.opts.threads && this.waiting.length > 0) this.send(this.waiting.splice(0, per))
  }

  private send(part: Pending[]): void {
    this.tasksInFlight++
    const started = performance.now()
    const batch: Batch = { tasks: part.map((p) => p.task) }
    if (part.some((p) => p.deadline !== 0)) batch.deadlines = part.map((p) => p.deadline)
    this.piscina.run(batch).then(
      (outcomes) => {
        this.onTaskDone?.(
          batch.tasks.map((t) => t.op),
          (performance.now() - started) / 1000,
        )
        part.forEach((p, i) => {
          const o = outcomes[i]
          if (o === undefined) this.settle(p, new WorkerTaskError('worker returned no outcome'))
          else if (o.ok) this.settle(p, undefined, o.value)
          else this.settle(p, outcomeError(o, p.timeoutMs))
        })
        this.taskEnded()
      },
      (e: unknown) => {
        // The worker died before answering: stopped by the watchdog for one of these calls, or crashed. Calls past
        // their deadline are answered so; the others are sent once more, the task that killed it being among the
        // former (or failing twice).
        const now = Date.now()
        const again: Pending[] = []
        for (const p of part) {
          if (expired(p, now)) this.settle(p, new TaskTimeoutError(p.timeoutMs))
          else if (p.retried) this.settle(p, new WorkerTaskError(e instanceof Error ? e.message : String(e)))
          else {
            p.retried = true
            again.push(p)
          }
        }
        this.waiting.unshift(...again)
        this.taskEnded()
      },
    )
  }

  private taskEnded(): void {
    this.tasksInFlight--
    this.pump()
    if (this.tasksInFlight === 0 && this.waiting.length === 0) this.drained?.()
  }

  private settle(p: Pending, error: Error | undefined, value?: unknown): void {
    this.inFlightCalls--
    if (p.deadline !== 0 && --this.timedInFlight === 0 && this.watchdog !== undefined) {
      clearInterval(this.watchdog)
      this.watchdog = undefined
    }
    if (error === undefined) p.resolve(value)
    else p.reject(error)
  }

  /** Answers calls whose deadline passed while they waited, and stops the workers running one past its deadline. */
  private watch(): void {
    const now = Date.now()
    if (this.waiting.some((p) => expired(p, now))) {
      const waiting = this.waiting
      this.waiting = []
      for (const p of waiting) {
        if (expired(p, now)) this.settle(p, new TaskTimeoutError(p.timeoutMs))
        else this.waiting.push(p)
      }
    }
    const threads = this.piscina.threads
    const stop = threadsToStop(this.deadlines, now, new Set(threads.map((t) => t.threadId)))
    // Piscina fails the stopped worker's task (see send) and starts a replacement.
    for (const id of stop) void threads.find((t) => t.threadId === id)?.terminate()
  }

  /** Lets running and queued tasks finish, then stops the threads. */
  async close(): Promise<void> {
    if (this.tasksInFlight > 0 || this.waiting.length > 0) await new Promise<void>((resolve) => (this.drained = resolve))
    if (this.watchdog !== undefined) clearInterval(this.watchdog)
    return this.piscina.close()
  }
}

/** The error a failed outcome stands for; `timeoutMs` is the call's time limit (a skipped call's message). */
function outcomeError(o: Exclude<TaskOutcome<unknown>, { ok: true }>, timeoutMs: number): Error {
  if ('timedOut' in o) return new TaskTimeoutError(timeoutMs)
  if ('error' in o) return rebuiltError(o.error) ?? new WorkerTaskError(`${o.error.name}: ${o.error.message}`)
  return new WorkerTaskError(o.internal.message, o.internal.stack)
}

/** The two lanes: engine work never waits behind, nor is refused for, public load. */
export interface Lanes {
  engine: WorkerPool
  public: WorkerPool
}
