import { type ChildProcess, spawn } from 'node:child_process'
import { cpuSeconds, servingCpuSeconds } from './procStat.js'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import type { GethGenesisFile } from '../chain/genesis.js'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'
import { type Rpc, rpcClient } from './chainGen.js'
import { runWrk, writeBodiesScript } from './wrk.js'
import { kzgLoaded } from './nodeSettled.js'

// anvil (npm @foundry-rs/anvil) beside Sponge in one run: started on the same genesis, asked the same requests.

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** anvil from its npm package's platform binary, on the same genesis (and `args`); resolves once it answers. */
export async function startAnvil(genesisFile: string, args: string[] = []): Promise<{ url: string; proc: ChildProcess }> {
  const require = createRequire(import.meta.url)
  const bin = join(require.resolve('@foundry-rs/anvil-linux-amd64/package.json'), '..', 'bin', 'anvil')
  const port = await freePort()
  const proc = spawn(bin, ['--init', genesisFile, '--port', String(port), '--silent', ...args], { stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    try {
      await rpcClient(url)('eth_chainId', [])
      return { url, proc }
    } catch {
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  proc.kill()
  throw new Error('anvil did not start')
}

/**
 * Sponge (no mining of its own: blocks come through its Engine API, `engine`) and anvil, both started on `genesis`;
 * `stop` ends both.
 */
export async function startBoth(opts: {
  work: string
  cli: string | undefined
  name: string
  genesis: GethGenesisFile
  apis: string
  /** More of Sponge's flags (bench:load's --sponge-args: `--http.threads 2`). */
  spongeArgs?: string[]
}): Promise<{
  node: SpawnedNode
  engine: Rpc
  anvil: { url: string; proc: ChildProcess }
  stop: () => Promise<void>
}> {
  const file = join(opts.work, `${opts.name}-genesis.json`)
  writeFileSync(file, JSON.stringify(opts.genesis))
  const jwt = join(opts.work, `${opts.name}-jwt.hex`)
  const secret = Buffer.alloc(32, 7)
  writeFileSync(jwt, secret.toString('hex'))
  const node = await spawnNode(
    [
      '--chain',
      file,
      '--datadir',
      join(opts.work, opts.name),
      '--http.api',
      opts.apis,
      '--no-mining',
      '--authrpc.jwtsecret',
      jwt,
      ...(opts.spongeArgs ?? []),
    ],
    120_000,
    opts.cli,
  )
  await kzgLoaded(node, opts.spongeArgs)
  let anvil: { url: string; proc: ChildProcess }
  try {
    anvil = await startAnvil(file)
  } catch (e) {
    await node.stop()
    throw e
  }
  return {
    node,
    engine: rpcClient(node.authUrl!, secret),
    anvil,
    stop: async () => {
      anvil.proc.kill()
      await node.stop()
    },
  }
}

/** A request's result, or its error code: what two servers' replies are compared by. */
export async function postResult(url: string, body: string): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const j = (await res.json()) as { result?: unknown; error?: { code: number } }
  return j.error === undefined ? j.result : { errorCode: j.error.code }
}

/** What a side-by-side workload set is run with (bench:load's flags). */
export interface BesideAnvilOptions {
  wrk: string
  work: string
  cli: string | undefined
  connections: number[]
  seconds: number
  /** Count answered and refused calls in every reply (wrk.ts's counting script). */
  count?: boolean
  /** Only the workloads whose names match. */
  only: RegExp | undefined
  log: (l: string) => void
  /** More of Sponge's flags, for the node beside anvil. */
  spongeArgs?: string[]
  /** Pairs measured of each workload and connection count (measureBesideAnvil); 1 when omitted. */
  rounds?: number
}

export interface BesideAnvilRow {
  workload: string
  server: 'sponge' | 'anvil'
  connections: number
  requestsPerSec: number
  p50ms: number
  p99ms: number
  errors: number
  /** With `count`: calls answered with a result, and error replies of any code, per second (wrk.ts). */
  resultsPerSec?: number | undefined
  errorRepliesPerSec?: number | undefined
  /** Of the sampled bodies, how many anvil answered with exactly the same result or error code. */
  identicalReplies?: string
  /** The server's CPU (all its threads) per request while wrk ran, µs. */
  cpuUsPerRequest?: number
  /** Sponge's serving threads' busy share while wrk ran, summed (1: a whole core; the main thread's with one). */
  servingThreadBusy?: number
  /** Gas of one request's call, when the workload says (Mgas/s = requests/s × this / 1e6). */
  gasPerRequest?: number
  /** With more than one round: Sponge's rate over anvil's in each pair (on Sponge's row), and every round's rate. */
  ratios?: number[]
  roundRates?: number[]
}

export interface AnvilWorkload {
  name: string
  bodies: string[]
  /** The gas each request's call spends, for a Mgas/s column. */
  gasPerRequest?: number
  /** What of a result the comparison ignores (fields that differ by construction, such as block hashes). */
  normalize?: (result: unknown) => unknown
}

/**
 * Each workload's replies compared on a sample, then wrk against both servers at each connection count, `rounds`
 * times: a round is a pair measured back to back, Sponge first in odd rounds and anvil first in even ones (the one
 * measured second loses to the first's leftovers and to neighbours alike). Each server's row is its median round,
 * with every round's rate and, on Sponge's, each pair's ratio, whose median is the comparison to report.
 */
export async function measureBesideAnvil(opts: {
  wrk: string
  work: string
  connections: number[]
  seconds: number
  count?: boolean
  log: (l: string) => void
  spongeUrl: string
  anvilUrl: string
  /** The servers' processes, for their CPU per request. */
  spongePid?: number | undefined
  anvilPid?: number | undefined
  workloads: AnvilWorkload[]
  rounds?: number
}): Promise<BesideAnvilRow[]> {
  const rows: BesideAnvilRow[] = []
  for (const w of opts.workloads) {
    const sample = w.bodies.filter((_, i) => i % Math.max(1, Math.floor(w.bodies.length / 20)) === 0)
    const norm = w.normalize ?? ((r: unknown) => r)
    let same = 0
    for (const b of sample) {
      const [ours, theirs] = [JSON.stringify(norm(await postResult(opts.spongeUrl, b))), JSON.stringify(norm(await postResult(opts.anvilUrl, b)))]
      if (ours === theirs) same++
      else if (process.env.SPONGE_BENCH_DIFF !== undefined)
        opts.log(`differs: ${b}\n  sponge ${ours.slice(0, 600)}\n  anvil  ${theirs.slice(0, 600)}`)
    }
    const script = writeBodiesScript(opts.work, w.name.replace(/\W+/g, '_'), w.bodies, opts.count === true)
    const measureOne = async (server: 'sponge' | 'anvil', url: string, c: number): Promise<BesideAnvilRow> => {
      await runWrk(opts.wrk, url, script, c, 1)
      const pid = server === 'sponge' ? opts.spongePid : opts.anvilPid
      const cpuBefore = pid === undefined ? 0 : cpuSeconds(pid)
      const threadBefore = pid === undefined || server !== 'sponge' ? 0 : servingCpuSeconds(pid)
      const r = await runWrk(opts.wrk, url, script, c, opts.seconds)
      const requests = r.requestsPerSec * opts.seconds
      const row: BesideAnvilRow = {
        workload: w.name,
        server,
        connections: c,
        requestsPerSec: r.requestsPerSec,
        p50ms: r.p50ms,
        p99ms: r.p99ms,
        errors: r.errors,
      }
      if (r.resultsPerSec !== undefined) {
        row.resultsPerSec = r.resultsPerSec
        row.errorRepliesPerSec = r.errorRepliesPerSec
      }
      if (server === 'sponge') row.identicalReplies = `${same}/${sample.length}`
      if (pid !== undefined && requests > 0) {
        row.cpuUsPerRequest = Math.round(((cpuSeconds(pid) - cpuBefore) * 1e6) / requests)
        if (server === 'sponge') row.servingThreadBusy = Number(((servingCpuSeconds(pid) - threadBefore) / opts.seconds).toFixed(2))
      }
      if (w.gasPerRequest !== undefined) row.gasPerRequest = w.gasPerRequest
      opts.log(
        `${w.name} ${server} c=${c}: ${r.requestsPerSec.toFixed(0)} req/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms, errors ${r.errors}${server === 'sponge' ? `, replies identical to anvil's ${same}/${sample.length}` : ''}`,
      )
      return row
    }
    const rounds = Math.max(1, opts.rounds ?? 1)
    for (const c of opts.connections) {
      const measured: Record<'sponge' | 'anvil', BesideAnvilRow[]> = { sponge: [], anvil: [] }
      for (let round = 0; round < rounds; round++) {
        const pair = [
          ['sponge', opts.spongeUrl],
          ['anvil', opts.anvilUrl],
        ] as const
        for (const [server, url] of round % 2 === 0 ? pair : [...pair].reverse()) {
          measured[server].push(await measureOne(server, url, c))
        }
      }
      const ratios = measured.sponge.map((r, i) => r.requestsPerSec / measured.anvil[i]!.requestsPerSec)
      rows.push(medianRound(measured.sponge, rounds > 1 ? ratios : undefined), medianRound(measured.anvil, undefined))
    }
  }
  return rows
}

/** A server's median round, carrying every round's rate. */
function medianRound(rounds: BesideAnvilRow[], ratios: number[] | undefined): BesideAnvilRow {
  const median = lowerMedian(rounds, (r) => r.requestsPerSec)
  if (rounds.length === 1) return median
  return { ...median, roundRates: rounds.map((r) => Math.round(r.requestsPerSec)), ...(ratios === undefined ? {} : { ratios }) }
}

/** The median of the pairs' ratios. */
export function medianRatio(ratios: number[]): number {
  return lowerMedian(ratios, (r) => r)
}

/** The middle of `xs` by `key`: the lower of the two middle ones for an even count (a round that was measured). */
function lowerMedian<T>(xs: readonly T[], key: (x: T) => number): T {
  return [...xs].sort((a, b) => key(a) - key(b))[Math.floor((xs.length - 1) / 2)]!
}
