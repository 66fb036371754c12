import { type Server, createServer } from 'node:http'
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { EngineService } from '../engine/engineService.js'
import type { ChainStore } from '../store/chainStore.js'
import type { TxPool } from '../txpool/txPool.js'
import type { WorkerPool } from '../workers/pool.js'
import type { ThreadCalls } from '../calls/threadCalls.js'
import { logWork } from '../rpc/methods/logs.js'
import { CallTally } from './callTally.js'
import { PHASES, readBlockPhases } from '../util/blockPhases.js'

/** A registry's metrics as getMetricsAsJSON gives them: what a serving thread sends the main thread at a scrape. */
export type MetricsJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>

/** The serving threads, as the metrics see them. */
export interface ThreadsMetrics {
  /** Requests each thread has taken since start, by slot. */
  taken(): number[]
  /** Each thread's metrics now. */
  metrics(): Promise<MetricsJson[]>
}

const LATENCY_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/**
 * The node's Prometheus metrics (prom-client), served on --metrics.addr/--metrics.port when --metrics is given.
 * Request counters are per method (known methods only: a client cannot grow the label set) and per port.
 */
export class NodeMetrics {
  readonly registry = new Registry()
  private readonly errors = new Counter({
    name: 'sponge_rpc_errors_total',
    help: 'JSON-RPC calls answered with an error, by method, port and code',
    labelNames: ['method', 'port', 'code'] as const,
    registers: [this.registry],
  })
  /** sponge_rpc_requests_total and sponge_rpc_duration_seconds. */
  private readonly callTally = new CallTally(this.registry, LATENCY_BUCKETS)
  private readonly taskSeconds = new Histogram({
    name: 'sponge_pool_task_seconds',
    help: 'Worker task time (queue wait included), by lane and operation',
    labelNames: ['lane', 'op'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  })
  private readonly blockSeconds = new Histogram({
    name: 'sponge_block_validation_seconds',
    help: 'engine_newPayload time, by status',
    labelNames: ['status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  })
  private readonly blockGas = new Counter({
    name: 'sponge_block_gas_total',
    help: 'Gas of the blocks validated through engine_newPayload',
    registers: [this.registry],
  })
  private threads: ThreadsMetrics | undefined

  /**
   * `lanes` is read at each scrape: a reader that reopens a replaced datadir puts its new lane in the old one's place
   * (and hands it to watchLane); `store` is what the reader reads now. A serving thread's (`thread`) keeps only what
   * is its own — its calls, its lane, its log work — and the main thread sums them into its scrape (watchThreads).
   */
  constructor(deps: {
    store: Pick<ChainStore, 'getLabel' | 'getNumber'>
    lanes: WorkerPool[]
    txPool?: TxPool
    engine?: EngineService
    thread?: boolean
    /** Where the serving thread's calls ran (calls/threadCalls.ts): read at each scrape. */
    calls?: () => ThreadCalls['counts']
    /** The engine workers' block phase counters (util/blockPhases.ts). */
    blockPhases?: SharedArrayBuffer
  }) {
    const { store, txPool, lanes, engine, thread = false, calls, blockPhases } = deps
    if (!thread) collectDefaultMetrics({ register: this.registry, prefix: 'sponge_' })
    new Gauge({
      name: 'sponge_pool_in_flight',
      help: 'Worker pool calls admitted and not yet answered, by lane',
      labelNames: ['lane'] as const,
      registers: [this.registry],
      collect() {
        for (const l of lanes) this.set({ lane: l.name }, l.stats.inFlight)
      },
    })
    new Gauge({
      name: 'sponge_pool_refused_calls',
      help: 'Worker pool calls refused (-32005) since start, by lane',
      labelNames: ['lane'] as const,
      registers: [this.registry],
      collect() {
        for (const l of lanes) this.set({ lane: l.name }, l.stats.refused)
      },
    })
    if (!thread)
      new Gauge({
        name: 'sponge_chain_block_number',
        help: 'Number of the head, safe and finalized blocks',
        labelNames: ['label'] as const,
        registers: [this.registry],
        collect() {
          for (const label of ['head', 'safe', 'finalized'] as const) {
            const hash = store.getLabel(label)
            const n = hash === undefined ? undefined : store.getNumber(hash)
            if (n !== undefined) this.set({ label }, Number(n))
          }
        },
      })
    new Gauge({
      name: 'sponge_log_blocks_scanned',
      help: 'Blocks log queries (eth_getLogs, the polling filters) have visited since start',
      registers: [this.registry],
      collect() {
        this.set(logWork.blocks)
      },
    })
    new Gauge({
      name: 'sponge_log_slices',
      help: 'Slices of log queries run since start, on the serving thread and in the lane',
      labelNames: ['where'] as const,
      registers: [this.registry],
      collect() {
        this.set({ where: 'thread' }, logWork.threadSlices)
        this.set({ where: 'lane' }, logWork.laneSlices)
      },
    })
    if (calls !== undefined)
      new Gauge({
        name: 'sponge_thread_calls',
        help: 'eth_call and its kin since start: run on the serving thread, left to the lane, or abandoned at the budget',
        labelNames: ['where'] as const,
        registers: [this.registry],
        collect() {
          const counts = calls()
          this.set({ where: 'thread' }, counts.thread)
          this.set({ where: 'lane' }, counts.lane)
          this.set({ where: 'abandoned' }, counts.abandoned)
        },
      })
    // A reader has no pool and validates no blocks.
    if (txPool !== undefined)
      new Gauge({
        name: 'sponge_txpool_transactions',
        help: 'Transactions in the pool (pending and queued)',
        registers: [this.registry],
        collect() {
          this.set(txPool.size)
        },
      })
    if (blockPhases !== undefined) {
      // Counters summed by the engine workers in shared memory, read as they stand at each scrape.
      new Counter({
        name: 'sponge_block_phase_seconds_total',
        help: 'Time engine_newPayload spent on each phase of the blocks it executed (senders, execution, stateReads, receipts, commit, record, store, other)',
        labelNames: ['phase'] as const,
        registers: [this.registry],
        collect() {
          this.reset()
          const { seconds } = readBlockPhases(blockPhases)
          for (const phase of PHASES) this.inc({ phase }, seconds[phase])
        },
      })
      new Counter({
        name: 'sponge_block_phase_blocks_total',
        help: 'Blocks engine_newPayload executed, whose phases sponge_block_phase_seconds_total adds up',
        registers: [this.registry],
        collect() {
          this.reset()
          this.inc(readBlockPhases(blockPhases).blocks)
        },
      })
    }
    for (const lane of lanes) this.watchLane(lane)
    if (engine !== undefined)
      engine.onValidated = (status, seconds, gasUsed) => {
        this.blockSeconds.observe({ status }, seconds)
        if (status === 'VALID') this.blockGas.inc(Number(gasUsed))
      }
  }

  /** Each task's time on `lane`, by operation. */
  watchLane(lane: WorkerPool): void {
    lane.onTaskDone = (ops, seconds) => {
      for (const op of ops) this.taskSeconds.observe({ lane: lane.name, op }, seconds)
    }
  }

  /**
   * The serving threads' metrics, summed into each scrape with this thread's of the same names (a call answered on
   * any thread counts once under its method and port), and the requests each thread has taken, labelled by thread.
   */
  watchThreads(threads: ThreadsMetrics): void {
    this.threads = threads
    new Gauge({
      name: 'sponge_http_thread_requests',
      help: 'HTTP bodies and WebSocket messages each serving thread has taken since start',
      labelNames: ['thread'] as const,
      registers: [this.registry],
      collect() {
        const taken = threads.taken()
        for (let slot = 0; slot < taken.length; slot++) this.set({ thread: String(slot) }, taken[slot]!)
      },
    })
  }

  /** The scrape's text: this thread's metrics, the serving threads' summed in. */
  async text(): Promise<string> {
    if (this.threads === undefined) return this.registry.metrics()
    const [own, theirs] = await Promise.all([this.registry.getMetricsAsJSON(), this.threads.metrics()])
    const summed = new Set(theirs.flatMap((json) => json.map((m) => m.name)))
    const parts: string[] = []
    for (const m of own) if (!summed.has(m.name)) parts.push(await this.registry.getSingleMetricAsString(m.name))
    parts.push(await AggregatorRegistry.aggregate([own.filter((m) => summed.has(m.name)), ...theirs]).metrics())
    return `${parts.join('\n')}\n`
  }

  /** One answered call: `code` 0 for a result, else the JSON-RPC error code. */
  observeCall(method: string, port: string, code: number, seconds: number): void {
    this.callTally.observe(method, port, seconds)
    if (code !== 0) this.errors.inc({ method, port, code: String(code) })
  }

  /** GET /metrics in the Prometheus text format; anything else 404. */
  serve(host: string, port: number): Promise<Server> {
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== '/metrics') {
        res.writeHead(404).end()
        return
      }
      this.text().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      )
    })
    return new Promise((resolve, reject) => {
      server.once('error', (e) => reject(new Error(`cannot listen on ${host}:${port} for metrics: ${e.message}`)))
      server.listen(port, host, () => resolve(server))
    })
  }
}
