import { Agent, request } from 'node:http'
import { devAccounts } from '../chain/dev.js'
import { assemble, countDown } from '../testing/asm.js'
import { runWrk, writeBodiesScript } from './wrk.js'

// bench:load's admission by cost (issue 21, item 3): the goodput of each class of work alone and under a flood of the
// other, side by side in one run. The node's EVM lane admits by client — over HTTP the remote address — so the
// measured client connects from MEASURED (any 127.x address reaches a server on 127.0.0.1) and the flood comes from
// wrk, which connects from 127.0.0.1 and cannot choose its source address.

const MEASURED = '127.0.0.2'
/** The address the drain probe connects from: a third client, so that it gets a share of its own. */
const PROBE = '127.0.0.3'
/** The measured client's concurrent requests (keep-alive connections). */
const CONCURRENCY = 8
/** The EVM flood: wrk's connections, each posting batches of this many heavy calls (64 × 20 is past the lane's 1,024). */
const FLOOD_CONNECTIONS = 64
const HEAVY_PER_BATCH = 20
/** Turns of the heavy call's loop: 26 gas a turn, ~5.2 M gas, ~0.1 s of a worker here. */
const HEAVY_TURNS = 200_000
/** The read flood: wrk's connections, each posting batches of 100 store-served reads. */
const READ_FLOOD_CONNECTIONS = 16

/** Counts down from HEAVY_TURNS and returns the zero it reaches: gas-heavy work that ends with a result. */
const HEAVY = assemble([
  `0x${HEAVY_TURNS.toString(16).padStart(6, '0')}`,
  { label: 'top' },
  ...countDown('top'),
  '0x00',
  'MSTORE',
  '0x20',
  '0x00',
  'RETURN',
])
/** Returns one word: an eth_call whose cost is the lane's path, not the interpreter's. */
const LIGHT = assemble(['0x2a', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN'])

export type ClassName = 'store reads' | 'eth_call'
export type FloodName = 'none' | 'EVM calls' | 'store reads'

/** What one client's requests got over a window. */
export interface DriveResult {
  /** Calls answered with a result, per second: the goodput. */
  resultsPerSec: number
  /** Calls refused with -32005 (past the lane's room or the client's share), per second. */
  refusedPerSec: number
  /** Calls answered with any other JSON-RPC error, per second. */
  otherErrorsPerSec: number
  /** Requests answered with an HTTP status other than 200, or lost at the socket, in the window. */
  httpErrors: number
  p50ms: number
  p99ms: number
  /** The first request that had a call refused: which method the lane took, when a store read is refused. */
  firstRefused?: string
}

export interface ClassRow extends DriveResult {
  class: ClassName
  flood: FloodName
  /** This row's goodput over the same class's alone, in the same run. */
  ratioToAlone: number | undefined
  /** What the flooding client (wrk, 127.0.0.1) got over its whole flood; undefined when alone. */
  flooder?: { resultsPerSec: number; refusedPerSec: number; otherErrorsPerSec: number; httpErrorsPerSec: number }
}

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!
}

const count = (text: string, needle: string) => text.split(needle).length - 1

/** One POST over `agent`; resolves with the status and the body, or undefined when the socket failed. */
function post(url: URL, agent: Agent, body: string): Promise<{ status: number; text: string } | undefined> {
  return new Promise((resolve) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (d: Buffer) => chunks.push(d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
        res.on('error', () => resolve(undefined))
      },
    )
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', () => resolve(undefined))
    req.end(body)
  })
}

/**
 * One client, `localAddress`, keeping CONCURRENCY requests in flight for `seconds`, its bodies in turn. Counted: what
 * was answered within the window; latencies: every request, including those still running at its end.
 */
export async function drive(url: string, localAddress: string, bodies: string[], seconds: number): Promise<DriveResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, localAddress })
  const target = new URL(url)
  const end = performance.now() + seconds * 1000
  let results = 0
  let refused = 0
  let otherErrors = 0
  let httpErrors = 0
  let next = 0
  let firstRefused: string | undefined
  const latencies: number[] = []
  const loop = async () => {
    while (performance.now() < end) {
      const body = bodies[next++ % bodies.length]!
      const t0 = performance.now()
      const reply = await post(target, agent, body)
      const t1 = performance.now()
      latencies.push(t1 - t0)
      if (t1 > end) break
      if (reply === undefined || reply.status !== 200) {
        httpErrors++
        // A refused connection fails at once: do not spin on it.
        if (reply === undefined) await new Promise((r) => setTimeout(r, 10))
        continue
      }
      results += count(reply.text, '"result":')
      const refusedHere = count(reply.text, '"code":-32005')
      refused += refusedHere
      if (refusedHere > 0) firstRefused ??= body
      otherErrors += count(reply.text, '"error":') - refusedHere
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, loop))
  agent.destroy()
  return {
    resultsPerSec: results / seconds,
    refusedPerSec: refused / seconds,
    otherErrorsPerSec: otherErrors / seconds,
    httpErrors,
    p50ms: quantile(latencies, 0.5),
    p99ms: quantile(latencies, 0.99),
    ...(firstRefused === undefined ? {} : { firstRefused }),
  }
}

/** Waits (bounded) until a light call from a third client is answered quickly: the flood's queued calls are done. */
async function drained(url: string, log: (l: string) => void): Promise<void> {
  const agent = new Agent({ keepAlive: true, localAddress: PROBE })
  const started = performance.now()
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ input: LIGHT }, 'latest'] })
  try {
    while (performance.now() - started < 30_000) {
      const t0 = performance.now()
      const reply = await post(new URL(url), agent, body)
      if (reply?.text.includes('"result"') === true && performance.now() - t0 < 100) return
      await new Promise((r) => setTimeout(r, 200))
    }
    log('classes: the lane did not drain within 30 s')
  } finally {
    agent.destroy()
  }
}

/**
 * Store-served reads (eth_blockNumber, eth_getBalance at the head, eth_getTransactionReceipt) and light eth_calls,
 * each measured from one client alone, then under a flood from another client: of heavy eth_calls (gas-heavy loops,
 * in batches past the lane's room) and of batches of store reads. Every phase lasts `seconds`, after a second of
 * warm-up; the ratios compare phases of the same run.
 */
export async function runClasses(opts: {
  wrk: string
  work: string
  httpUrl: string
  receipts: string[]
  seconds: number
  log: (l: string) => void
}): Promise<ClassRow[]> {
  const accounts = devAccounts().map((a) => a.address)
  const call = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', id, method, params })
  const readBodies = Array.from({ length: 300 }, (_, i) => {
    const k = i % 3
    if (k === 0) return JSON.stringify(call('eth_blockNumber', []))
    if (k === 1) return JSON.stringify(call('eth_getBalance', [accounts[i % accounts.length], 'latest']))
    return JSON.stringify(call('eth_getTransactionReceipt', [opts.receipts[i % opts.receipts.length]]))
  })
  const callBodies = [JSON.stringify(call('eth_call', [{ input: LIGHT }, 'latest']))]
  const heavyScript = writeBodiesScript(
    opts.work,
    'classes_heavy',
    [JSON.stringify(Array.from({ length: HEAVY_PER_BATCH }, (_, i) => call('eth_call', [{ input: HEAVY }, 'latest'], i)))],
    true,
  )
  const readFloodScript = writeBodiesScript(
    opts.work,
    'classes_reads',
    Array.from({ length: 20 }, (_, b) =>
      JSON.stringify(Array.from({ length: 100 }, (_, i) => JSON.parse(readBodies[(b * 100 + i) % readBodies.length]!))),
    ),
    true,
  )
  // The heavy call must end with a result, or the flood's goodput would read zero by construction.
  const probeAgent = new Agent()
  const probe = await post(new URL(opts.httpUrl), probeAgent, JSON.stringify(call('eth_call', [{ input: HEAVY }, 'latest'])))
  probeAgent.destroy()
  if (probe?.text.includes('"result"') !== true) throw new Error(`classes: the heavy call answered ${probe?.text.slice(0, 200)}`)

  const rows: ClassRow[] = []
  const alone = new Map<ClassName, number>()
  const record = (klass: ClassName, flood: FloodName, r: DriveResult, flooder?: ClassRow['flooder']) => {
    if (flood === 'none') alone.set(klass, r.resultsPerSec)
    const base = alone.get(klass)
    const row: ClassRow = { class: klass, flood, ...r, ratioToAlone: base === undefined || base === 0 ? undefined : r.resultsPerSec / base }
    if (flooder !== undefined) row.flooder = flooder
    rows.push(row)
    opts.log(
      `classes: ${klass} under ${flood === 'none' ? 'no flood' : `a flood of ${flood}`}: ${r.resultsPerSec.toFixed(0)} results/s, p50 ${r.p50ms.toFixed(1)} ms p99 ${r.p99ms.toFixed(1)} ms, ` +
        `${r.refusedPerSec.toFixed(0)} refused/s, ${r.otherErrorsPerSec.toFixed(0)} other errors/s, ${r.httpErrors} HTTP errors` +
        (row.ratioToAlone === undefined ? '' : `, ×${row.ratioToAlone.toFixed(2)} of alone`) +
        (r.firstRefused === undefined ? '' : `; first refused: ${r.firstRefused.slice(0, 200)}`),
    )
  }
  const measure = async (bodies: string[]) => {
    await drive(opts.httpUrl, MEASURED, bodies, 1)
    return drive(opts.httpUrl, MEASURED, bodies, opts.seconds)
  }
  /** wrk floods for a second of warm-up plus the phases run meanwhile, one after another. */
  const underFlood = async (flood: FloodName, script: string, connections: number, phases: [ClassName, string[]][]) => {
    const total = 1 + phases.length * (opts.seconds + 1)
    const wrk = runWrk(opts.wrk, opts.httpUrl, script, connections, total)
    await new Promise((r) => setTimeout(r, 1000))
    const got: [ClassName, DriveResult][] = []
    for (const [klass, bodies] of phases) got.push([klass, await measure(bodies)])
    const w = await wrk
    const requests = w.requestsPerSec * total
    const flooder = {
      resultsPerSec: w.resultsPerSec ?? 0,
      refusedPerSec: w.refusedPerSec ?? 0,
      otherErrorsPerSec: Math.max(0, (w.errorRepliesPerSec ?? 0) - (w.refusedPerSec ?? 0)),
      httpErrorsPerSec: w.errors / total,
    }
    opts.log(
      `classes: the ${flood} flood (wrk, ${connections} connections): ${Math.round(requests)} requests, ${flooder.resultsPerSec.toFixed(0)} results/s`,
    )
    for (const [klass, r] of got) record(klass, flood, r, flooder)
  }

  record('store reads', 'none', await measure(readBodies))
  record('eth_call', 'none', await measure(callBodies))
  await underFlood('store reads', readFloodScript, READ_FLOOD_CONNECTIONS, [['eth_call', callBodies]])
  await underFlood('EVM calls', heavyScript, FLOOD_CONNECTIONS, [
    ['store reads', readBodies],
    ['eth_call', callBodies],
  ])
  await drained(opts.httpUrl, opts.log)
  return rows
}
