import { AggregatorRegistry, Counter, Histogram, Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { CallTally } from './callTally.js'

// The tally must scrape exactly as prom-client's own Counter and Histogram fed the same calls: the same text, the
// same JSON (what serving threads send), the same sums across threads.

const BUCKETS = [0.001, 0.01, 0.1]

function tallied() {
  const registry = new Registry()
  const tally = new CallTally(registry, BUCKETS)
  return { registry, observe: (method: string, port: string, seconds: number) => tally.observe(method, port, seconds) }
}

function promClient() {
  const registry = new Registry()
  const labelNames = ['method', 'port'] as const
  const requests = new Counter({
    name: 'sponge_rpc_requests_total',
    help: 'JSON-RPC calls answered, by method and port',
    labelNames,
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'sponge_rpc_duration_seconds',
    help: 'Time from a call being read to its answer, by method and port',
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  })
  return {
    registry,
    observe: (method: string, port: string, seconds: number) => {
      requests.inc({ method, port })
      latency.observe({ method, port }, seconds)
    },
  }
}

// On a bound (a bucket takes its bound), between, past the last, zero; two ports, methods seen in this order.
const CALLS: [string, string, number][] = [
  ['eth_chainId', 'http', 0.001],
  ['eth_getBalance', 'http', 0.0004],
  ['engine_newPayloadV4', 'auth', 0.05],
  ['eth_chainId', 'http', 0.2],
  ['eth_getBalance', 'http', 0],
  ['eth_chainId', 'http', 0.01],
]

describe('the calls tally', () => {
  it("scrapes as prom-client's counter and histogram fed the same calls, scrape after scrape", async () => {
    const [ours, theirs] = [tallied(), promClient()]
    for (const call of CALLS) for (const side of [ours, theirs]) side.observe(...call)
    expect(await ours.registry.metrics()).toBe(await theirs.registry.metrics())
    expect(await ours.registry.getMetricsAsJSON()).toEqual(await theirs.registry.getMetricsAsJSON())
    for (const call of CALLS.slice(2)) for (const side of [ours, theirs]) side.observe(...call)
    const text = await ours.registry.metrics()
    expect(text).toBe(await theirs.registry.metrics())
    expect(text).toContain('sponge_rpc_requests_total{method="eth_chainId",port="http"} 5')
    expect(text).toContain('sponge_rpc_duration_seconds_bucket{le="0.001",method="eth_getBalance",port="http"} 3')
  })

  it('sums across threads as prom-client does', async () => {
    const [a, b, c, d] = [tallied(), tallied(), promClient(), promClient()]
    for (const call of CALLS) for (const side of [a, c]) side.observe(...call)
    for (const call of CALLS.slice(3)) for (const side of [b, d]) side.observe(...call)
    const sum = async (x: Registry, y: Registry) => AggregatorRegistry.aggregate([await x.getMetricsAsJSON(), await y.getMetricsAsJSON()]).metrics()
    expect(await sum(a.registry, b.registry)).toBe(await sum(c.registry, d.registry))
  })
})
