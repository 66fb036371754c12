import { Counter, Histogram, type Registry } from 'prom-client'

/**
 * The JSON-RPC calls answered, by method and port: `sponge_rpc_requests_total` and `sponge_rpc_duration_seconds`,
 * tallied into plain numbers on each call and handed to prom-client only at a scrape. prom-client's own `inc` and
 * `observe` validate and hash their labels into a new string on every call: ~1 µs a call, as much as a state read
 * costs, and half of a batch of 100 state reads' time on a node with --metrics. A scrape reads the same values in
 * the same shape prom-client's Histogram gives them (so the serving threads' are summed as before).
 */
export class CallTally {
  private readonly byPort = new Map<string, Map<string, MethodTally>>()

  constructor(
    registry: Registry,
    private readonly buckets: readonly number[],
  ) {
    const tallies = () => this.all()
    new Counter({
      name: 'sponge_rpc_requests_total',
      help: 'JSON-RPC calls answered, by method and port',
      labelNames: ['method', 'port'] as const,
      registers: [registry],
      collect() {
        for (const t of tallies()) {
          if (t.count > t.counted) this.inc({ method: t.method, port: t.port }, t.count - t.counted)
          t.counted = t.count
        }
      },
    })
    registry.registerMetric(new TalliedHistogram(tallies, buckets))
  }

  /** One call: its method and port (the names' hashes are kept in the strings, so the lookups build nothing). */
  observe(method: string, port: string, seconds: number): void {
    let byMethod = this.byPort.get(port)
    if (byMethod === undefined) this.byPort.set(port, (byMethod = new Map()))
    let t = byMethod.get(method)
    if (t === undefined) byMethod.set(method, (t = new MethodTally(method, port, this.buckets.length)))
    t.count++
    t.sum += seconds
    const b = this.buckets
    let i = 0
    while (i < b.length && seconds > b[i]!) i++
    if (i < b.length) t.inBucket[i]!++
  }

  private *all(): Iterable<MethodTally> {
    for (const byMethod of this.byPort.values()) yield* byMethod.values()
  }
}

class MethodTally {
  count = 0
  /** Of `count`, how many the requests counter has been given. */
  counted = 0
  sum = 0
  /** Calls by the first bucket they fall in (not cumulative); past the last, only in `count`. */
  readonly inBucket: Float64Array

  constructor(
    readonly method: string,
    readonly port: string,
    buckets: number,
  ) {
    this.inBucket = new Float64Array(buckets)
  }
}

type HistogramData = Awaited<ReturnType<Histogram<string>['get']>>
/** One exported value as prom-client's Histogram makes them: its own labels apart from the label set's. */
interface ExportValue {
  labels: Record<string, string | number>
  sharedLabels: Record<string, string>
  value: number
  metricName: string
  /** prom-client's buckets carry a null exemplar (none kept). */
  exemplar?: null
}

const NAME = 'sponge_rpc_duration_seconds'
const HELP = 'Time from a call being read to its answer, by method and port'

/**
 * sponge_rpc_duration_seconds from the tallies: prom-client's Histogram with its export read from them instead of
 * from its own observations (it is given none).
 */
class TalliedHistogram extends Histogram<'method' | 'port'> {
  constructor(
    private readonly tallies: () => Iterable<MethodTally>,
    private readonly bounds: readonly number[],
  ) {
    super({ name: NAME, help: HELP, labelNames: ['method', 'port'] as const, buckets: [...bounds], registers: [] })
  }

  /** The values with each label set's labels apart, as prom-client's text format takes a histogram's. */
  getForPromString(): Promise<HistogramData> {
    const values: ExportValue[] = []
    for (const t of this.tallies()) {
      const sharedLabels = { method: t.method, port: t.port }
      const bucket = `${NAME}_bucket`
      let below = 0
      for (let i = 0; i < this.bounds.length; i++) {
        below += t.inBucket[i]!
        values.push({ labels: { le: this.bounds[i]! }, sharedLabels, value: below, metricName: bucket, exemplar: null })
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels, value: t.count, metricName: bucket, exemplar: null })
      values.push({ labels: {}, sharedLabels, value: t.sum, metricName: `${NAME}_sum` })
      values.push({ labels: {}, sharedLabels, value: t.count, metricName: `${NAME}_count` })
    }
    return Promise.resolve({ name: NAME, help: HELP, type: 'histogram', aggregator: 'sum', values } as unknown as HistogramData)
  }

  /** The same values with all their labels in `labels`: getMetricsAsJSON's shape, what the serving threads send. */
  override async get(): Promise<HistogramData> {
    const data = await this.getForPromString()
    const values = (data.values as unknown as ExportValue[]).map(({ sharedLabels, ...v }) => ({ ...v, labels: { ...v.labels, ...sharedLabels } }))
    return { ...data, values } as unknown as HistogramData
  }
}
