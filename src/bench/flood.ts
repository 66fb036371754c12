import { devAccounts } from '../chain/dev.js'
import type { Rpc } from './chainGen.js'
import { runWrk, writeBodiesScript } from './wrk.js'

const ZERO32 = `0x${'00'.repeat(32)}`

export interface FloodRow {
  connections: number
  /** Calls answered with a result per second: the goodput. */
  resultsPerSec: number
  refusedPerSec: number
  /**
   * Requests answered with an HTTP error or lost at the socket, per second (before admission by cost, 503 while the
   * public lane was saturated; the name is kept for the JSON's readers).
   */
  http503PerSec: number
  p50ms: number
  p99ms: number
  /** The engine client's latencies during the run, through the authenticated port. */
  engine: { blocks: number; forkchoiceP50: number; forkchoiceP99: number; newPayloadP50: number; newPayloadP99: number; failures: string[] }
}

export const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!
}

/**
 * A consensus client's block cycle (forkchoiceUpdated with attributes, getPayload, newPayload, forkchoiceUpdated),
 * repeated until `until`, each call timed. Any error or non-VALID status is recorded as a failure.
 */
export async function engineCycle(engine: Rpc, until: number): Promise<FloodRow['engine']> {
  const fc: number[] = []
  const np: number[] = []
  const failures: string[] = []
  const timed = async <T>(into: number[], f: () => Promise<T>): Promise<T> => {
    const t0 = performance.now()
    const r = await f()
    into.push(performance.now() - t0)
    return r
  }
  let blocks = 0
  while (Date.now() < until) {
    try {
      // The consensus client reads through the authenticated port, as it does.
      const head = (await engine('eth_getBlockByNumber', ['latest', false])) as { hash: string; timestamp: string }
      const t = Math.max(Math.floor(Date.now() / 1000), Number(BigInt(head.timestamp)) + 1)
      const started = (await timed(fc, () =>
        engine('engine_forkchoiceUpdatedV3', [
          { headBlockHash: head.hash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
          {
            timestamp: `0x${t.toString(16)}`,
            prevRandao: ZERO32,
            suggestedFeeRecipient: `0x${'00'.repeat(20)}`,
            withdrawals: [],
            parentBeaconBlockRoot: ZERO32,
          },
        ]),
      )) as { payloadId: string }
      const env = (await engine('engine_getPayloadV5', [started.payloadId])) as { executionPayload: { blockHash: string } }
      const p = env.executionPayload
      const status = (await timed(np, () => engine('engine_newPayloadV4', [p, [], ZERO32, []]))) as { status: string }
      if (status.status !== 'VALID') failures.push(`newPayload ${status.status}`)
      const moved = (await timed(fc, () =>
        engine('engine_forkchoiceUpdatedV3', [{ headBlockHash: p.blockHash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 }, null]),
      )) as { payloadStatus: { status: string } }
      if (moved.payloadStatus.status !== 'VALID') failures.push(`forkchoiceUpdated ${moved.payloadStatus.status}`)
      blocks++
    } catch (e) {
      failures.push((e as Error).message)
    }
    // A slot is 12 s; here a block every ~100 ms keeps the engine busy enough to measure.
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    blocks,
    forkchoiceP50: quantile(fc, 0.5),
    forkchoiceP99: quantile(fc, 0.99),
    newPayloadP50: quantile(np, 0.5),
    newPayloadP99: quantile(np, 0.99),
    failures: failures.slice(0, 5),
  }
}

/**
 * Overload: wrk posts batches of 100 public state reads (eth_getBalance and eth_getStorageAt over the dev accounts)
 * from each connection count, while an engine client makes blocks through the authenticated port. Goodput is the
 * calls answered with a result per second; the lowest connection count serves as the capacity it is compared with.
 */
export async function runFlood(opts: {
  wrk: string
  work: string
  httpUrl: string
  engine: Rpc
  connections: number[]
  seconds: number
  log: (l: string) => void
}): Promise<FloodRow[]> {
  const accounts = devAccounts().map((a) => a.address)
  const bodies = Array.from({ length: 20 }, (_, b) =>
    JSON.stringify(
      Array.from({ length: 100 }, (_, i) => {
        const address = accounts[(b + i) % accounts.length]!
        return i % 2 === 0
          ? { jsonrpc: '2.0', id: i, method: 'eth_getBalance', params: [address, 'latest'] }
          : { jsonrpc: '2.0', id: i, method: 'eth_getStorageAt', params: [address, `0x${i.toString(16)}`, 'latest'] }
      }),
    ),
  )
  const script = writeBodiesScript(opts.work, 'flood', bodies, true)
  const rows: FloodRow[] = []
  for (const c of opts.connections) {
    await runWrk(opts.wrk, opts.httpUrl, script, c, 1)
    const until = Date.now() + opts.seconds * 1000
    const [r, engine] = await Promise.all([runWrk(opts.wrk, opts.httpUrl, script, c, opts.seconds), engineCycle(opts.engine, until)])
    const row: FloodRow = {
      connections: c,
      resultsPerSec: r.resultsPerSec ?? 0,
      refusedPerSec: r.refusedPerSec ?? 0,
      http503PerSec: r.errors / opts.seconds,
      p50ms: r.p50ms,
      p99ms: r.p99ms,
      engine,
    }
    rows.push(row)
    opts.log(
      `flood c=${c}: ${row.resultsPerSec.toFixed(0)} calls/s served, ${row.refusedPerSec.toFixed(0)} refused (-32005), ${row.http503PerSec.toFixed(0)} requests/s HTTP errors, p50 ${r.p50ms} ms; ` +
        `engine: ${engine.blocks} blocks, forkchoiceUpdated p50 ${engine.forkchoiceP50.toFixed(1)} ms p99 ${engine.forkchoiceP99.toFixed(1)} ms, ` +
        `newPayload p50 ${engine.newPayloadP50.toFixed(1)} ms p99 ${engine.newPayloadP99.toFixed(1)} ms, failures ${engine.failures.length}`,
    )
  }
  return rows
}
