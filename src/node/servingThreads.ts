import { MessageChannel, Worker } from 'node:worker_threads'
import type { HttpServer } from '../rpc/httpServer.js'
import type { ForwardedCall, ForwardedReply, HolderClosed } from '../rpc/portForwarder.js'
import type { Logger } from '../util/logger.js'
import type { MetricsJson } from './metrics.js'
import { NODE_DEFAULTS } from './defaults.js'
import { type ReadSettings, readSettingsOf } from './sharedContext.js'
import { freeSharedPort } from './sharedPort.js'
import { type FromServingThread, type ServingThreadInit, TAKEN_STRIDE, type ToServingThread } from './servingThreadInit.js'
import { SubscriberCounts } from '../subscriptions/hub.js'

/** A slot whose thread ended this many times within RESTART_WINDOW_MS is left empty: it would fail at every start. */
const MAX_RESTARTS = 3
const RESTART_WINDOW_MS = 60_000

// Resolves to dist/node/servingThread.js from both src/node (tests) and dist/node (the built node), as the pool's.
const THREAD_FILE = new URL('../../dist/node/servingThread.js', import.meta.url)

export interface ServingThreadsOptions {
  threads: number
  /** Every thread's settings; the port may be 0 (one is chosen, then shared). */
  init: Omit<ServingThreadInit, 'forward' | 'headSequence' | 'admission' | 'taken' | 'slot' | 'subscribers'>
  /** SharedAdmission's memory: every thread's public lane and the node's admit against it. */
  admission: SharedArrayBuffer
  /** HeadSequence's shared memory: the main thread advances it once it has committed a forkchoice. */
  headSequence: SharedArrayBuffer
  /**
   * A call a thread hands on, answered by the main thread: the JSON-RPC reply it would have sent. `holder`: the
   * stand-in for the thread's WebSocket connection it came on, which holds the filters it installs.
   */
  answer(call: ForwardedCall, holder: object | undefined): Promise<string>
  /** A holder's connection has closed, or its thread has ended: the filters it holds go. */
  holderClosed(holder: object): void
  /** How long a drain lets each thread's requests finish before it closes its connections anyway, ms. */
  drainBoundMs: number
  log: Logger
}

/** What a node's and a reader's options say of their port, requests and reads (an omitted one takes its default). */
export interface PortSettings extends ReadSettings {
  datadir: string
  http: { host: string; port: number; vhosts?: string[]; corsOrigins?: string[] }
  maxBodyBytes?: number
  maxBatch?: number
  maxReplyBytes?: number
  maxBatchReplyBytes?: number
  workers?: number
  maxQueue?: number
}

/** The part of every thread's settings a node and a reader take alike from their options. */
export function threadSettings(
  o: PortSettings,
  threads: number,
): Pick<
  ServingThreadInit,
  | 'datadir'
  | 'host'
  | 'port'
  | 'vhosts'
  | 'corsOrigins'
  | 'maxBodyBytes'
  | 'maxBatch'
  | 'maxReplyBytes'
  | 'maxBatchReplyBytes'
  | 'read'
  | 'workers'
  | 'maxQueue'
> {
  return {
    datadir: o.datadir,
    host: o.http.host,
    port: o.http.port,
    vhosts: o.http.vhosts ?? [...NODE_DEFAULTS.http.vhosts],
    corsOrigins: o.http.corsOrigins ?? [...NODE_DEFAULTS.http.corsOrigins],
    maxBodyBytes: o.maxBodyBytes ?? NODE_DEFAULTS.maxBodyBytes,
    maxBatch: o.maxBatch ?? NODE_DEFAULTS.maxBatch,
    maxReplyBytes: o.maxReplyBytes ?? NODE_DEFAULTS.maxReplyBytes,
    maxBatchReplyBytes: o.maxBatchReplyBytes ?? NODE_DEFAULTS.maxBatchReplyBytes,
    read: readSettingsOf(o),
    // --workers in all, split among the threads' lanes.
    workers: Math.max(1, Math.round((o.workers ?? NODE_DEFAULTS.workers) / threads)),
    maxQueue: o.maxQueue ?? NODE_DEFAULTS.maxQueue,
  }
}

/** The node's public port served by `threads` threads (servingThread.ts), as one HttpServer. */
export interface ServingThreads extends HttpServer {
  readonly threads: number
  /** Requests (HTTP bodies and WebSocket messages) each thread has taken, by slot (a replacement takes its slot). */
  taken(): number[]
  /** Tells every thread's subscribers of a canonical change (committed, the head sequence advanced). */
  canonicalChanged(added: Uint8Array[], removed: Uint8Array[]): void
  /** Tells every thread's newPendingTransactions subscribers of a transaction the pool admitted. */
  pendingTransaction(hash: string): void
  /** Each running thread's metrics (none kept without --metrics). */
  metrics(): Promise<MetricsJson[]>
  /** Threads serving now: fewer than `threads` while one is being replaced, or once a slot was given up. */
  readonly running: number
  /** A reader's: tells every thread its lag and problem for their /health. */
  readerHealth(lag: { blocks: number; max: number }, problem: string | undefined): void
  /** Makes the thread in `slot` throw, uncaught (the tests' way to see the replacement). */
  fail(slot: number, reason: string): void
}

interface Running {
  worker: Worker
  slot: number
  /** Set once drained: the requests it left unanswered. */
  unanswered: number
}

/**
 * Starts the serving threads on one port: chosen free first (sharedPort.ts), then each thread's uWS app listens on
 * it with SO_REUSEPORT and the kernel spreads connections among them. Each thread has a MessagePort to this thread
 * for what only the node can do. A thread that ends while serving is logged and replaced.
 */
export async function startServingThreads(o: ServingThreadsOptions): Promise<ServingThreads> {
  const port = await freeSharedPort(o.init.host, o.init.port)
  const { headSequence, admission } = o
  const takenMemory = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * TAKEN_STRIDE * o.threads)
  const taken = new Int32Array(takenMemory)
  const subscribersMemory = SubscriberCounts.shared(o.threads)
  const subscribers = new SubscriberCounts(subscribersMemory)
  const running = new Set<Running>()
  let draining = false
  let lastHealth: ToServingThread | undefined
  /** When each slot's threads ended while serving, within RESTART_WINDOW_MS. */
  const endings = new Map<number, number[]>()

  const start = (slot: number): Promise<Running> =>
    new Promise((resolve, reject) => {
      const { port1, port2 } = new MessageChannel()
      const init: ServingThreadInit = {
        ...o.init,
        port,
        headSequence,
        admission,
        taken: takenMemory,
        slot,
        subscribers: subscribersMemory,
        forward: port2,
      }
      const worker = new Worker(THREAD_FILE, { workerData: init, transferList: [port2] })
      const r: Running = { worker, slot, unanswered: 0 }
      let listening = false
      let failure: string | undefined
      // The stand-ins for this thread's WebSocket connections that hold filters here, by the thread's number.
      const holders = new Map<number, object>()
      port1.on('message', (m: ForwardedCall | HolderClosed) => {
        if ('closed' in m) {
          const holder = holders.get(m.closed)
          holders.delete(m.closed)
          if (holder !== undefined) o.holderClosed(holder)
          return
        }
        const call = m
        let holder = call.holder === undefined ? undefined : holders.get(call.holder)
        if (call.holder !== undefined && holder === undefined) holders.set(call.holder, (holder = {}))
        o.answer(call, holder).then(
          (text) => port1.postMessage({ id: call.id, text } satisfies ForwardedReply),
          (e: unknown) => port1.postMessage({ id: call.id, text: internalError(e) } satisfies ForwardedReply),
        )
      })
      worker.on('message', (m: FromServingThread) => {
        if (m.op === 'listening') {
          listening = true
          // A thread started in place of another learns what the others were told last.
          if (lastHealth !== undefined) worker.postMessage(lastHealth)
          running.add(r)
          resolve(r)
        } else if (m.op === 'failed') {
          failure = m.error
        } else if (m.op === 'metrics') {
          scrapes.get(m.id)?.(m.json)
        } else {
          r.unanswered = m.unanswered
        }
      })
      worker.on('error', (e) => {
        failure ??= e.stack ?? e.message
      })
      worker.on('exit', (code) => {
        port1.close()
        // Its connections are gone with it.
        for (const holder of holders.values()) o.holderClosed(holder)
        holders.clear()
        running.delete(r)
        subscribers.clear(slot)
        if (!listening) {
          reject(new Error(`a serving thread did not start: ${failure ?? `exit code ${code}`}`))
        } else if (!draining) {
          const now = Date.now()
          const ended = [...(endings.get(slot) ?? []).filter((t) => now - t < RESTART_WINDOW_MS), now]
          endings.set(slot, ended)
          const fields = { slot, exitCode: code, error: failure ?? 'none' }
          if (ended.length > MAX_RESTARTS) {
            o.log.error(`a serving thread ended ${ended.length} times within ${RESTART_WINDOW_MS / 1000} s: its place is left empty`, fields)
            return
          }
          o.log.error('a serving thread ended; starting another in its place', fields)
          start(slot).then(
            () => o.log.info('a serving thread took the place of one that ended', { slot }),
            (e: unknown) => o.log.error('the serving thread could not be replaced', { slot, error: String(e) }),
          )
        }
      })
    })

  // Each scrape's answers by id: a thread ended meanwhile answers nothing (its calls are no longer counted).
  const scrapes = new Map<number, (json: MetricsJson) => void>()
  let scrapeIds = 0
  const metrics = (): Promise<MetricsJson[]> =>
    Promise.all(
      [...running].map(
        (r) =>
          new Promise<MetricsJson>((resolve) => {
            const id = ++scrapeIds
            const done = (json: MetricsJson) => {
              scrapes.delete(id)
              r.worker.off('exit', gone)
              resolve(json)
            }
            const gone = () => done([])
            scrapes.set(id, done)
            r.worker.once('exit', gone)
            r.worker.postMessage({ op: 'metrics', id } satisfies ToServingThread)
          }),
      ),
    )

  const tellAll = (m: ToServingThread): void => {
    for (const r of running) r.worker.postMessage(m)
  }

  const drain = async (): Promise<void> => {
    draining = true
    const threads = [...running]
    await Promise.all(
      threads.map(
        (r) =>
          new Promise<void>((resolve) => {
            r.worker.once('exit', () => resolve())
            r.worker.postMessage({ op: 'drain', boundMs: o.drainBoundMs } satisfies ToServingThread)
          }),
      ),
    )
    const left = threads.reduce((n, r) => n + r.unanswered, 0)
    if (left > 0) o.log.warn('serving threads closed with requests unanswered', { unanswered: left, waitedMs: o.drainBoundMs })
  }

  try {
    for (let slot = 0; slot < o.threads; slot++) await start(slot)
  } catch (e) {
    await drain()
    throw e
  }
  return {
    port,
    threads: o.threads,
    // What a drain left; while serving, each thread's requests are its own (the plan: a shared counter).
    get inFlight() {
      let n = 0
      for (const r of running) n += r.unanswered
      return n
    },
    taken: () => Array.from({ length: o.threads }, (_, slot) => taken[slot * TAKEN_STRIDE]!),
    // Only while a thread has a subscriber for it: the head a request reads is the shared sequence's (beforeRequest),
    // and a thread ends its requests' snapshot itself.
    canonicalChanged: (added, removed) => {
      if (subscribers.any('chain')) tellAll({ op: 'canonical', added, removed })
    },
    pendingTransaction: (hash) => {
      if (subscribers.any('pending')) tellAll({ op: 'pending', hash })
    },
    metrics,
    get running() {
      return running.size
    },
    readerHealth: (lag, problem) => {
      lastHealth = { op: 'health', lag, problem }
      tellAll(lastHealth)
    },
    fail: (slot, reason) => {
      for (const r of running) if (r.slot === slot) r.worker.postMessage({ op: 'fail', reason } satisfies ToServingThread)
    },
    drain,
    closeAll: () => undefined,
  }
}

/** A reply for a call whose answer failed on the main thread itself (the envelope answers handler errors). */
function internalError(e: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 0, error: { code: -32603, message: `internal error: ${e instanceof Error ? e.message : String(e)}` } })
}
