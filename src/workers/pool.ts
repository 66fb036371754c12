import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { Piscina } from 'piscina'
import { type Admission, LocalAdmission, SharedAdmission } from './admission.js'
import { createDeadlineBuffer, threadsToStop } from './deadlines.js'
import { PoolBusyError, TaskTimeoutError, WorkerTaskError, rebuiltError } from './errors.js'
import type { Batch, SingleTask, TaskMap, TaskName, TaskOutcome, WorkerInit, WorkerStarted } from './tasks.js'

export interface LaneOptions {
  /** For logs and metrics: 'engine' or 'public'. */
  name: string
  threads: number
  /**
   * Calls admitted and not yet answered, at most; a group of calls that would pass it is refused whole with
   * PoolBusyError, at once, instead of waiting in a growing queue. Undefined: never refused (the engine lane).
   */
  maxInFlight?: number
  /**
   * The threads start when calls need them and stop after this long without a task, ms. Undefined: every thread
   * starts with the lane and stays. An idle thread holds its isolate, heaps and module graph (~40 MiB: docs/
   * performance.md, "Idle memory"); one started on demand costs its first call the thread's start-up.
   */
  idleMs?: number
  /**
   * The admission counts this lane shares with others (SharedAdmission's memory: the public lanes of the serving
   * threads and the node's), `maxInFlight` bounding them together. Undefined: its own.
   */
  admission?: SharedArrayBuffer
  /**
   * The nice its threads run at (util/threadRole.ts): the public lanes' above the engine's threads, so that public
   * work takes the cores the engine leaves. Undefined: the nice of the thread that starts them.
   */
  nice?: number
}

export function defaultPoolSize(): number {
  return Math.max(1, availableParallelism() - 1)
}

// Resolves to dist/workers/worker.js from both src/workers (tests) and dist/workers (the built node).
const WORKER_FILE = new URL('../../dist/workers/worker.js', import.meta.url).href

/** How often the watchdog looks for calls past their deadline, while any are admitted. */
const WATCH_MS = 25

/**
 * The most calls one task carries to a worker. A task runs its calls one after another and answers them together,
 * so a call that arrives while a worker chews through another client's task waits for all of it: the cap bounds that
 * wait, and the round trip it costs (tens of microseconds) is small beside even one eth_call.
 */
const MAX_TASK_CALLS = 8

/**
 * A task's expected worker time, ms: a client's task holds as many of its calls as fit by what its calls have cost
 * (at least one, MAX_TASK_CALLS at most), so that a client of long calls holds the worker for one of them at a time
 * and another client waits for one such call, not eight; cheap calls still travel eight to a round trip.
 */
const TASK_BUDGET_MS = 10

/** Clients whose call cost is remembered, at most; past it the memory starts over. */
const MAX_COSTED_CLIENTS = 4096

/**
 * The client the engine's own work on a lane runs as (`runAs`): sent even while the lane is held for an engine call
 * (`hold`), since it is that call's work (a newPayload's senders recovered beside the engine's worker).
 */
export const ENGINE_CLIENT = '\0engine'

/** The calls of one lane that a request may start: run them, and ask how many more would be admitted. */
export interface Lane {
  run<K extends TaskName>(task: Extract<SingleTask, { op: K }>, opts?: { timeoutMs?: number }): Promise<TaskMap[K]['out']>
  /**
   * How many of `calls` more the lane admits now, at most `calls`: the envelope asks once per body before running its
   * handlers, and answers the pool calls past the count -32005 at once.
   */
  admits(calls: number): number
}

interface Pending {
  /** Whose call it is (a client key; '' for work started outside a request): calls are dispatched fairly by it. */
  client: string
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
 * A Piscina pool of workers that execute and build blocks and read state off the serving thread. Calls wait here
 * while every worker is busy, and a worker that finishes takes up to MAX_TASK_CALLS that waited as one task (fewer
 * when they are long: TASK_BUDGET_MS), so under load a round trip between threads carries several calls. Calls are
 * kept by client (a WebSocket connection, an HTTP remote address: see `forClient`) and the clients take turns by
 * task (a task holds one client's calls), so a client's long queue does not stand before another's call, nor can its
 * overdue calls fail another's; and each client is admitted no more than its share of the lane (`admits`).
 * Time-limited calls (eth_call and its kin) travel the same way: a worker skips a call whose deadline passed while
 * it waited, and the watchdog stops a worker whose running call passes its deadline; the other calls of that task
 * are sent again.
 */
export class WorkerPool implements Lane {
  private readonly piscina: Piscina<Batch, TaskOutcome<unknown>[]>
  private readonly deadlines = createDeadlineBuffer()
  private group: Pending[] = []
  /** Admitted, not yet sent to a worker, by client, in the order the clients are to be served next. */
  private waiting = new Map<string, Pending[]>()
  private waitingCalls = 0
  /** Calls admitted and not yet answered, by client: this lane's, or shared with other lanes (LaneOptions.admission). */
  private readonly admission: Admission
  /** What a call of each client has cost a worker lately, ms (a moving average over its tasks). */
  private readonly callCostMs = new Map<string, number>()
  private tasksInFlight = 0
  /** hold()s not yet released. */
  private holds = 0
  private inFlightCalls = 0
  private timedInFlight = 0
  private refusedCalls = 0
  private watchdog: NodeJS.Timeout | undefined
  /** The threads that have posted WorkerStarted (a few of them gone, at most: see `workerStarted`). */
  private readonly started = new Set<number>()
  /** close() waiting for what was admitted to be answered. */
  private drained: (() => void) | undefined
  /** Task time observer (metrics): the lane, the ops of one task, and its duration in seconds. */
  onTaskDone: ((ops: TaskName[], seconds: number) => void) | undefined

  constructor(
    init: WorkerInit,
    private readonly opts: LaneOptions,
  ) {
    this.admission = opts.admission === undefined ? new LocalAdmission() : new SharedAdmission(opts.admission)
    this.piscina = new Piscina({
      filename: WORKER_FILE,
      workerData: {
        ...init,
        deadlines: this.deadlines,
        role: { name: `${opts.name} lane`, ...(opts.nice === undefined ? {} : { nice: opts.nice }) },
      } satisfies WorkerInit,
      minThreads: opts.idleMs === undefined ? opts.threads : 0,
      maxThreads: opts.threads,
      idleTimeout: opts.idleMs ?? Number.POSITIVE_INFINITY,
    })
    this.piscina.on('message', (message: unknown) => {
      if (isWorkerStarted(message)) this.workerStarted(message.started)
    })
  }

  private workerStarted(threadId: number): void {
    const live = new Set(this.piscina.threads.map((t) => t.threadId))
    for (const id of this.started) if (!live.has(id)) this.started.delete(id)
    this.started.add(threadId)
  }

  get name(): string {
    return this.opts.name
  }

  get threads(): number {
    return this.opts.threads
  }

  /** Threads running now, started or starting: fewer than `threads` while a lane with `idleMs` has idled. */
  get running(): number {
    return this.piscina.threads.length
  }

  /**
   * Runs a task in a worker; failures come back as the domain errors they were (TxRejectedError, …). With a time
   * limit, a task not answered within it fails with TaskTimeoutError (its worker stopped if it was running it).
   */
  run<K extends TaskName>(task: Extract<SingleTask, { op: K }>, opts: { timeoutMs?: number } = {}): Promise<TaskMap[K]['out']> {
    return this.runAs('', task, opts)
  }

  /** What a request of `client` starts on this lane: its calls are counted and dispatched as that client's. */
  forClient(client: string): Lane {
    return {
      run: (task, opts) => this.runAs(client, task, opts),
      admits: (calls) => this.admitsFor(client, calls),
    }
  }

  /** `run`, as `client`'s call. */
  runAs<K extends TaskName>(client: string, task: Extract<SingleTask, { op: K }>, opts: { timeoutMs?: number } = {}): Promise<TaskMap[K]['out']> {
    return new Promise((resolve, reject) => {
      if (this.group.length === 0) queueMicrotask(() => this.flush())
      const timeoutMs = opts.timeoutMs ?? 0
      // Counted at once: a client's later bodies in the same turn see what it holds.
      this.admission.take(client)
      this.group.push({
        client,
        task,
        resolve: resolve as (v: unknown) => void,
        reject,
        deadline: timeoutMs > 0 ? Date.now() + timeoutMs : 0,
        timeoutMs,
        retried: false,
      })
    })
  }

  admits(calls: number): number {
    return this.admitsFor('', calls)
  }

  /**
   * How many of `calls` more `client` may start: what the lane has room for, and no more than the client's share —
   * the lane's places divided among the clients holding calls (this one counted) and one more, so that a client
   * arriving finds room even when another has taken all it may. An idle lane admits any number, or a batch larger
   * than the lane could never run.
   */
  private admitsFor(client: string, calls: number): number {
    const max = this.opts.maxInFlight
    const total = this.admission.total
    if (max === undefined || total === 0) return calls
    const room = max - total
    const mine = this.admission.heldBy(client)
    const clients = this.admission.clients + (mine === 0 ? 1 : 0)
    const share = Math.max(1, Math.floor(max / (clients + 1))) - mine
    return Math.max(0, Math.min(calls, room, share))
  }

  get stats(): LaneStats {
    return { inFlight: this.inFlightCalls, refused: this.refusedCalls }
  }

  private flush(): void {
    let group = this.group
    this.group = []
    const max = this.opts.maxInFlight
    // A client's calls were admitted by `admits` before they were made. Work started outside a request (the ''
    // client: a fallback of a serving-thread method, the node's own) is refused here when it does not fit, unless
    // the lane is idle (or a group larger than the whole lane could never run).
    const total = this.admission.total
    if (max !== undefined && total > group.length && total > max) {
      const unasked = group.filter((p) => p.client === '')
      if (unasked.length > 0) {
        group = group.filter((p) => p.client !== '')
        this.refusedCalls += unasked.length
        const busy = new PoolBusyError(this.opts.name)
        for (const p of unasked) {
          this.release(p)
          p.reject(busy)
        }
      }
    }
    this.inFlightCalls += group.length
    for (const p of group) {
      if (p.deadline !== 0) this.timedInFlight++
      this.enqueue(p, false)
    }
    if (this.timedInFlight > 0) this.watchdog ??= setInterval(() => this.watch(), WATCH_MS).unref()
    this.pump()
  }

  /** Its client holds one call fewer. */
  private release(p: Pending): void {
    this.admission.release(p.client)
  }

  /** Queues a call behind its client's others, or before them (`first`: a call sent again). */
  private enqueue(p: Pending, first: boolean): void {
    const queue = this.waiting.get(p.client)
    if (queue === undefined) this.waiting.set(p.client, [p])
    else if (first) queue.unshift(p)
    else queue.push(p)
    this.waitingCalls++
  }

  /**
   * Up to `n` waiting calls of one client: the clients take turns by task, a client served going to the back of the
   * line. A task never mixes clients: when the watchdog stops a worker for one client's overdue call, the calls sent
   * again (and failed if their worker dies twice) are that client's own, never another's.
   */
  private take(n: number, client: string = this.waiting.keys().next().value!): Pending[] {
    const queue = this.waiting.get(client)!
    // A client not yet costed sends one call first: eight unknown calls could be eight long ones.
    const cost = this.callCostMs.get(client)
    const fit = cost === undefined ? 1 : Math.max(1, Math.min(n, Math.floor(TASK_BUDGET_MS / cost)))
    const out = queue.splice(0, fit)
    this.waitingCalls -= out.length
    this.waiting.delete(client)
    if (queue.length > 0) this.waiting.set(client, queue)
    return out
  }

  /**
   * Sends no task but the engine's own (ENGINE_CLIENT) until as many `unhold`s (the tasks running go on): the public
   * lane while an Engine API call is being answered, so that on a small machine the engine's threads do not share the
   * cores with public work.
   */
  hold(): void {
    this.holds++
  }

  unhold(): void {
    if (--this.holds === 0) this.pump()
  }

  /** Sends what waits to the free workers, an equal share each, one client a task, as many as its calls' cost fits. */
  private pump(): void {
    const free = this.opts.threads - this.tasksInFlight
    if (free <= 0 || this.waitingCalls === 0) return
    if (this.holds > 0) {
      if (this.waiting.has(ENGINE_CLIENT)) this.send(this.take(MAX_TASK_CALLS, ENGINE_CLIENT))
      return
    }
    const per = Math.min(MAX_TASK_CALLS, Math.ceil(this.waitingCalls / free))
    while (this.tasksInFlight < this.opts.threads && this.waitingCalls > 0) this.send(this.take(per))
  }

  private send(part: Pending[]): void {
    this.tasksInFlight++
    const started = performance.now()
    const batch: Batch = { tasks: part.map((p) => p.task) }
    if (part.some((p) => p.deadline !== 0)) {
      batch.deadlines = part.map((p) => p.deadline)
      batch.sentAt = Date.now()
    }
    this.piscina.run(batch).then(
      (outcomes) => {
        const ms = performance.now() - started
        this.onTaskDone?.(
          batch.tasks.map((t) => t.op),
          ms / 1000,
        )
        // Calls skipped for a deadline passed while they waited cost nothing: counting them would make long calls
        // look cheap and let eight of them into one task.
        const ran = outcomes.reduce((n, o) => (o !== undefined && !o.ok && 'timedOut' in o ? n : n + 1), 0)
        this.costed(part[0]!.client, ms / Math.max(1, ran))
        part.forEach((p, i) => {
          const o = outcomes[i]
          if (o === undefined) this.settle(p, new WorkerTaskError('worker returned no outcome'))
          else if (o.ok) this.settle(p, undefined, o.value)
          else this.settle(p, outcomeError(o, p.timeoutMs))
        })
        this.taskEnded()
      },
      (e: unknown) => {
        // Stopped for a call past its deadline: at least this long each.
        this.costed(part[0]!.client, performance.now() - started)
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
        for (let i = again.length - 1; i >= 0; i--) this.enqueue(again[i]!, true)
        this.taskEnded()
      },
    )
  }

  private costed(client: string, perCallMs: number): void {
    const before = this.callCostMs.get(client)
    if (before === undefined && this.callCostMs.size >= MAX_COSTED_CLIENTS) this.callCostMs.clear()
    this.callCostMs.set(client, before === undefined ? perCallMs : before * 0.7 + perCallMs * 0.3)
  }

  private taskEnded(): void {
    this.tasksInFlight--
    this.pump()
    if (this.tasksInFlight === 0 && this.waitingCalls === 0) this.drained?.()
  }

  private settle(p: Pending, error: Error | undefined, value?: unknown): void {
    this.inFlightCalls--
    this.release(p)
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
    for (const [client, queue] of this.waiting) {
      if (!queue.some((p) => expired(p, now))) continue
      const left = queue.filter((p) => !expired(p, now))
      for (const p of queue) if (expired(p, now)) this.settle(p, new TaskTimeoutError(p.timeoutMs))
      this.waitingCalls -= queue.length - left.length
      if (left.length === 0) this.waiting.delete(client)
      else this.waiting.set(client, left)
    }
    const threads = this.piscina.threads
    const stop = threadsToStop(this.deadlines, now, new Set(threads.map((t) => t.threadId)))
    // Piscina fails the stopped worker's task (see send) and starts a replacement.
    for (const id of stop) void threads.find((t) => t.threadId === id)?.terminate()
  }

  /**
   * Lets running and queued tasks finish and every thread finish starting, then stops the threads. A thread still
   * loading its modules — one of the first, or one started in place of a thread the watchdog stopped — is not stopped
   * then: a native binding's start-up cut off by worker.terminate, or Node's module linking, aborts the whole process.
   */
  async close(): Promise<void> {
    if (this.tasksInFlight > 0 || this.waitingCalls > 0) await new Promise<void>((resolve) => (this.drained = resolve))
    if (this.watchdog !== undefined) clearInterval(this.watchdog)
    await this.allStarted()
    return this.piscina.close()
  }

  /** Resolves once every thread has started or exited (one that crashed may have been replaced meanwhile: again). */
  private async allStarted(): Promise<void> {
    for (;;) {
      const starting = this.piscina.threads.filter((t) => !this.started.has(t.threadId))
      if (starting.length === 0) return
      await Promise.all(starting.map(startedOrGone))
    }
  }
}

function isWorkerStarted(message: unknown): message is WorkerStarted {
  return typeof message === 'object' && message !== null && typeof (message as Partial<WorkerStarted>).started === 'number'
}

/** Resolves when `worker` posts WorkerStarted or exits. */
function startedOrGone(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      worker.off('message', onMessage)
      worker.off('exit', done)
      resolve()
    }
    const onMessage = (message: unknown) => {
      if (isWorkerStarted(message)) done()
    }
    worker.on('message', onMessage)
    worker.on('exit', done)
  })
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
