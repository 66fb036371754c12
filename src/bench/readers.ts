import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { join } from 'node:path'
import WebSocket from 'ws'
import { ChainSpec } from '../chain/spec.js'
import { type HaproxyBackend, RECIPE_CHECK, haproxyPath, startHaproxy } from '../testing/haproxy.js'
import { type SpawnedNode, spawnNode, spawnReader } from '../testing/spawnNode.js'
import { type Rpc, mineAll, mineOne, rpcClient, sendAll, signTransfers } from './chainGen.js'
import { balanceOfBodies, tokenGenesis } from './evmReads.js'
import { cpuSeconds, machineCpuSeconds, threadCpuSeconds } from './procStat.js'
import { type WrkResult, runWrk, writeBodiesScript } from './wrk.js'

// bench:load --readers N,…: the node and N read-only readers (`sponge rpc`) on its datadir behind HAProxy (issue 23,
// items 2 and 5). One node on the dev chain plus bench:load's token (evmReads.ts), its blocks made through the
// engine from `--txs` transfers; readers started on its datadir; for each N, HAProxy in front of the first N readers
// with the node as backup (N = 0: the node alone, measured both directly and behind HAProxy, to show what the proxy
// itself costs), driven with wrk through the balancer: receipts of the generated transactions and eth_call balanceOf.
// Per process, the CPU seconds per wall second over each measured window: the node's, each reader's (the serving
// thread apart from the rest: the lane's worker and V8's helper threads), HAProxy's and wrk's. Then `reader lag`:
// blocks made one at a time through the engine, and for each the time from the node's answer to the head-setting
// forkchoiceUpdated to a reader's newHeads notification (its WebSocket) and to its eth_blockNumber showing the block
// (polled back to back), idle and with wrk reading receipts through the balancer meanwhile.

/** Worker threads of each reader's public lane: one, so that its serving thread and worker fit the two cores here. */
export const READER_WORKERS = 1
/** Blocks the lag is measured over, in each condition. */
const LAG_BLOCKS = 120
/** wrk's connections while the lag is measured under load. */
const LAG_LOAD_CONNECTIONS = 64

export const READER_WORKLOADS = ['readers: eth_getTransactionReceipt', 'readers: eth_call balanceOf'] as const
export const READER_LAG = 'reader lag'

export interface ReadersOptions {
  wrk: string
  work: string
  cli: string | undefined
  /** The reader counts measured (N = 0: the node alone). */
  readers: number[]
  connections: number[]
  seconds: number
  rounds: number
  txs: number
  only: RegExp | undefined
  log: (l: string) => void
}

/** A process's CPU over a window, in CPU seconds per wall second (1.0 = a whole core). */
export interface ProcessCpu {
  total: number
  /** The main thread: for the node and readers, the serving thread (uWS, the envelope, store reads). */
  main: number
}

export interface ReadersRow {
  workload: (typeof READER_WORKLOADS)[number]
  readers: number
  /** wrk straight to the node (N = 0 only), or through HAProxy. */
  via: 'direct' | 'haproxy'
  connections: number
  round: number
  requestsPerSec: number
  p50ms: number
  p99ms: number
  errors: number
  /** Calls answered with a JSON-RPC error, per second (counted for eth_call only: counting costs wrk CPU). */
  errorRepliesPerSec?: number
  cpu: {
    node: ProcessCpu
    /** Every reader started, those outside this row's balancer too (idle: their head watcher only). */
    readers: ProcessCpu[]
    haproxy: number
    wrk: number
    /**
     * The whole machine: cores busy (steal included: time a neighbour took), and of it softirq — the loopback's
     * packet processing, which the kernel charges to no process.
     */
    machine: { busy: number; softirq: number }
  }
}

export interface LagStats {
  p50ms: number
  p99ms: number
  maxMs: number
}

export interface ReaderLagRow {
  condition: 'idle' | `wrk reading receipts through HAProxy, ${number} connections`
  blocks: number
  /** From the node's answer to the head-setting engine_forkchoiceUpdatedV3 to the reader's newHeads notification. */
  newHeads: LagStats
  /** From the same answer to the reply of the first eth_blockNumber poll of the reader showing the block. */
  blockNumber: LagStats
  /** The forkchoiceUpdated's own round trip (the node's commit is somewhere in it). */
  forkchoiceMs: LagStats
  /** One eth_blockNumber poll's round trip: the poll's resolution. */
  pollRoundTripMs: LagStats
  /** Blocks a reader had not shown within 5 s (left out of the figures). */
  missed: number
  /** Each block's figures, ms, in the order made. */
  samples: { newHeads: number[]; blockNumber: number[]; forkchoice: number[] }
}

export interface ReadersResult {
  readerWorkers: number
  txs: number
  haproxy: { path: string; configs: { readers: number; configText: string }[] } | undefined
  rows: ReadersRow[]
  allRounds: ReadersRow[]
  lag: ReaderLagRow[]
}

const body = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
const round2 = (x: number) => Math.round(x * 100) / 100
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

function stats(xs: number[]): LagStats {
  const s = xs.slice().sort((a, b) => a - b)
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
  return { p50ms: at(0.5), p99ms: at(0.99), maxMs: s[s.length - 1] ?? Number.NaN }
}

/** A request's reply text, over node:http (lighter than fetch for a tight poll). */
function postText(url: string, text: string, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) } },
      (res) => {
        let reply = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (reply += d))
        res.on('end', () => resolve(reply))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(text)
  })
}

/** Posts `text` until a reply has a result (a balancer's first checks may still be under way), at most 10 s. */
async function preflight(url: string, text: string, name: string): Promise<void> {
  let last = ''
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })
      last = `${res.status} ${await res.text()}`
      if (res.status === 200 && last.includes('"result"')) return
    } catch (e) {
      last = String(e)
    }
    await sleep(100)
  }
  throw new Error(`${name}: preflight through ${url} got no result: ${last.slice(0, 300)}`)
}

interface CpuMark {
  at: number
  machine: { busy: number; softirq: number }
  node: ProcessCpu
  readers: ProcessCpu[]
  haproxy: number
}

function processCpu(pid: number): ProcessCpu {
  return { total: cpuSeconds(pid), main: threadCpuSeconds(pid, pid) }
}

function mark(node: SpawnedNode, readers: SpawnedNode[], haproxyPids: number[]): CpuMark {
  return {
    at: performance.now(),
    machine: machineCpuSeconds(),
    node: processCpu(node.process.pid!),
    readers: readers.map((r) => processCpu(r.process.pid!)),
    haproxy: haproxyPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
  }
}

function perSecond(a: CpuMark, b: CpuMark): Omit<ReadersRow['cpu'], 'wrk'> {
  const wall = (b.at - a.at) / 1000
  const rate = (x: ProcessCpu, y: ProcessCpu): ProcessCpu => ({ total: (y.total - x.total) / wall, main: (y.main - x.main) / wall })
  return {
    node: rate(a.node, b.node),
    readers: a.readers.map((r, i) => rate(r, b.readers[i]!)),
    haproxy: (b.haproxy - a.haproxy) / wall,
    machine: { busy: (b.machine.busy - a.machine.busy) / wall, softirq: (b.machine.softirq - a.machine.softirq) / wall },
  }
}

/**
 * The lag from the node's forkchoice to a reader's head, over LAG_BLOCKS blocks of one transfer each: the reader's
 * newHeads notifications over its WebSocket and eth_blockNumber polled back to back, both timestamped here.
 */
async function measureLag(opts: {
  spec: ChainSpec
  nodeUrl: string
  engine: Rpc
  readerUrl: string
  firstTx: number
  condition: ReaderLagRow['condition']
}): Promise<ReaderLagRow> {
  const http = rpcClient(opts.nodeUrl)
  const newHeadsAt = new Map<number, number>()
  const ws = new WebSocket(opts.readerUrl.replace('http://', 'ws://'))
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  ws.send(body('eth_subscribe', ['newHeads']))
  await new Promise<void>((resolve) => ws.once('message', () => resolve()))
  ws.on('message', (data: Buffer) => {
    const at = performance.now()
    const n = (JSON.parse(data.toString()) as { params?: { result?: { number?: string } } }).params?.result?.number
    if (n !== undefined) newHeadsAt.set(Number(BigInt(n)), at)
  })
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const blockNumberAt = new Map<number, number>()
  const rtts: number[] = []
  const question = body('eth_blockNumber', [])
  const ask = async () => Number(BigInt((JSON.parse(await postText(opts.readerUrl, question, agent)) as { result: string }).result))
  let seen = await ask()
  let polling = true
  // The poll's failure (the reader gone) ends the poll and is thrown once the blocks stop waiting for it.
  let pollFailure: unknown
  const poller = (async () => {
    try {
      while (polling) {
        const sent = performance.now()
        const n = await ask()
        const answered = performance.now()
        rtts.push(answered - sent)
        for (let k = seen + 1; k <= n; k++) blockNumberAt.set(k, answered)
        seen = Math.max(seen, n)
      }
    } catch (e) {
      pollFailure = e
    }
  })()
  const newHeads: number[] = []
  const blockNumber: number[] = []
  const forkchoice: number[] = []
  let missed = 0
  try {
    for (let b = 0; b < LAG_BLOCKS && pollFailure === undefined; b++) {
      await sendAll(opts.nodeUrl, signTransfers(opts.spec, 1, opts.firstTx + b))
      const mined = await mineOne(opts.engine, http)
      const n = mined.blockNumber
      const deadline = performance.now() + 5000
      while (!(newHeadsAt.has(n) && blockNumberAt.has(n)) && performance.now() < deadline) await sleep(1)
      if (newHeadsAt.has(n) && blockNumberAt.has(n)) {
        newHeads.push(newHeadsAt.get(n)! - mined.forkchoiceAnsweredAt)
        blockNumber.push(blockNumberAt.get(n)! - mined.forkchoiceAnsweredAt)
        forkchoice.push(mined.forkchoiceAnsweredAt - mined.forkchoiceSentAt)
      } else missed++
      // Blocks apart by a varying gap: no rhythm to fall in step with the head watcher's 100 ms poll.
      await sleep(20 + Math.random() * 30)
    }
  } finally {
    polling = false
    await poller
    agent.destroy()
    ws.terminate()
  }
  if (pollFailure !== undefined) throw new Error(`reader lag: polling ${opts.readerUrl} failed: ${String(pollFailure)}`)
  return {
    condition: opts.condition,
    blocks: newHeads.length,
    newHeads: stats(newHeads),
    blockNumber: stats(blockNumber),
    forkchoiceMs: stats(forkchoice),
    pollRoundTripMs: stats(rtts),
    missed,
    samples: { newHeads: newHeads.map(round2), blockNumber: blockNumber.map(round2), forkchoice: forkchoice.map(round2) },
  }
}

export async function runReaders(opts: ReadersOptions): Promise<ReadersResult | undefined> {
  const { log } = opts
  const selected = READER_WORKLOADS.filter((w) => opts.only === undefined || opts.only.test(w))
  const lagWanted = opts.only === undefined || opts.only.test(READER_LAG)
  if (selected.length === 0 && !lagWanted) return undefined
  const hp = haproxyPath()
  if (hp === undefined) throw new Error('--readers: HAProxy is not installed (apt-get install haproxy)')

  const genesis = tokenGenesis()
  const spec = new ChainSpec(genesis)
  const genesisFile = join(opts.work, 'readers-genesis.json')
  writeFileSync(genesisFile, JSON.stringify(genesis))
  const jwt = join(opts.work, 'readers-jwt.hex')
  const secret = Buffer.alloc(32, 9)
  writeFileSync(jwt, secret.toString('hex'))
  const datadir = join(opts.work, 'readers')
  // --health.maxage 0: the chain is idle while it is read, and a balancer must not take an old head for a stale one.
  const chainArgs = ['--chain', genesisFile, '--datadir', datadir, '--health.maxage', '0']
  const node = await spawnNode([...chainArgs, '--no-mining', '--miner.gaslimit', '36000000', '--authrpc.jwtsecret', jwt], 120_000, opts.cli)
  const readers: SpawnedNode[] = []
  try {
    const engine = rpcClient(node.authUrl!, secret)
    log(`readers: generating ${opts.txs} transfers…`)
    const hashes = await sendAll(node.httpUrl, signTransfers(spec, opts.txs))
    const blocks = await mineAll(engine, rpcClient(node.httpUrl))
    log(`readers: chain of ${blocks.length} blocks, ${hashes.length} transactions`)
    const most = Math.max(...opts.readers, lagWanted ? 1 : 0)
    for (let i = 0; i < most; i++) {
      readers.push(await spawnReader([...chainArgs, '--rpc.upstream', node.httpUrl, '--workers', String(READER_WORKERS)], 120_000, opts.cli))
    }
    log(`readers: ${readers.length} reader(s) serving, ${READER_WORKERS} public worker each`)
    // A reader just started still compiles and loads its worker: measure none until all are quiet (≤ 10 s).
    for (let i = 0; i < 20; i++) {
      const before = mark(node, readers, [])
      await sleep(500)
      if (perSecond(before, mark(node, readers, [])).readers.every((r) => r.total < 0.05)) break
    }

    const bodies: Record<ReadersRow['workload'], string[]> = {
      'readers: eth_getTransactionReceipt': hashes.map((h) => body('eth_getTransactionReceipt', [h])),
      'readers: eth_call balanceOf': balanceOfBodies(),
    }
    const scripts = new Map(
      selected.map((w) => [w, writeBodiesScript(opts.work, w.replace(/\W+/g, '_'), bodies[w], w === 'readers: eth_call balanceOf')] as const),
    )
    const configs = opts.readers.flatMap((n) =>
      n === 0
        ? [
            { readers: 0, via: 'direct' as const },
            { readers: 0, via: 'haproxy' as const },
          ]
        : [{ readers: n, via: 'haproxy' as const }],
    )
    const configTexts = new Map<number, string>()
    const backends = (n: number): HaproxyBackend[] =>
      n === 0
        ? [{ name: 'node', url: node.httpUrl }]
        : [...readers.slice(0, n).map((r, i) => ({ name: `reader${i + 1}`, url: r.httpUrl })), { name: 'node', url: node.httpUrl, backup: true }]
    // HAProxy as the README's recipe runs it (its checks, leastconn), once every server but the backup is up.
    const balancer = async (n: number) => {
      const proxy = await startHaproxy(backends(n), { check: RECIPE_CHECK })
      for (const b of backends(n)) if (b.backup !== true) await proxy.waitFor(b.name, 'UP')
      return proxy
    }
    const allRounds: ReadersRow[] = []
    for (let round = 0; round < (selected.length === 0 ? 0 : opts.rounds); round++) {
      for (const config of configs) {
        const proxy = config.via === 'haproxy' ? await balancer(config.readers) : undefined
        try {
          if (proxy !== undefined) configTexts.set(config.readers, proxy.configText)
          const url = proxy?.url ?? node.httpUrl
          const proxyPids = proxy === undefined ? [] : [proxy.process.pid!]
          for (const w of selected) {
            await preflight(url, bodies[w][0]!, w)
            for (const c of opts.connections) {
              await runWrk(opts.wrk, url, scripts.get(w)!, c, 1)
              const before = mark(node, readers, proxyPids)
              const r: WrkResult = await runWrk(opts.wrk, url, scripts.get(w)!, c, opts.seconds)
              const cpu = perSecond(before, mark(node, readers, proxyPids))
              const row: ReadersRow = {
                workload: w,
                readers: config.readers,
                via: config.via,
                connections: c,
                round,
                requestsPerSec: r.requestsPerSec,
                p50ms: r.p50ms,
                p99ms: r.p99ms,
                errors: r.errors,
                ...(r.errorRepliesPerSec === undefined ? {} : { errorRepliesPerSec: r.errorRepliesPerSec }),
                cpu: { ...cpu, wrk: r.generatorCpu },
              }
              allRounds.push(row)
              const pct = (x: number) => `${(x * 100).toFixed(0)}%`
              log(
                `${w} N=${config.readers} ${config.via} c=${c}: ${r.requestsPerSec.toFixed(0)} req/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms, errors ${r.errors}${r.errorRepliesPerSec ? `, error replies ${r.errorRepliesPerSec.toFixed(0)}/s` : ''}; CPU node ${pct(cpu.node.total)}, readers ${cpu.readers.map((x) => `${pct(x.total)} (serving ${pct(x.main)})`).join(' ') || '-'}, haproxy ${pct(cpu.haproxy)}, wrk ${pct(r.generatorCpu)}; machine ${pct(cpu.machine.busy)} busy (softirq ${pct(cpu.machine.softirq)})`,
              )
            }
          }
        } finally {
          await proxy?.stop()
        }
      }
    }
    const rows: ReadersRow[] = []
    for (const row of allRounds) {
      const i = rows.findIndex(
        (r) => r.workload === row.workload && r.readers === row.readers && r.via === row.via && r.connections === row.connections,
      )
      if (i < 0) rows.push(row)
      else if (row.requestsPerSec > rows[i]!.requestsPerSec) rows[i] = row
    }

    const lag: ReaderLagRow[] = []
    if (lagWanted) {
      let firstTx = opts.txs
      lag.push(await measureLag({ spec, nodeUrl: node.httpUrl, engine, readerUrl: readers[0]!.httpUrl, firstTx, condition: 'idle' }))
      firstTx += LAG_BLOCKS
      // Under load: wrk reads receipts through HAProxy from every reader started, the one measured among them.
      const proxy = await balancer(readers.length)
      try {
        const script = writeBodiesScript(opts.work, 'lag_receipts', bodies['readers: eth_getTransactionReceipt'])
        await preflight(proxy.url, bodies['readers: eth_getTransactionReceipt'][0]!, READER_LAG)
        const load = spawn(opts.wrk, ['-t1', `-c${LAG_LOAD_CONNECTIONS}`, '-d600s', '--timeout', '10s', '-s', script, proxy.url], { stdio: 'ignore' })
        const exited = new Promise<void>((resolve) => load.once('exit', () => resolve()))
        try {
          await sleep(1000)
          lag.push(
            await measureLag({
              spec,
              nodeUrl: node.httpUrl,
              engine,
              readerUrl: readers[0]!.httpUrl,
              firstTx,
              condition: `wrk reading receipts through HAProxy, ${LAG_LOAD_CONNECTIONS} connections`,
            }),
          )
        } finally {
          load.kill('SIGINT')
          await exited
        }
      } finally {
        await proxy.stop()
      }
      for (const l of lag) {
        const f = (s: LagStats) => `p50 ${s.p50ms.toFixed(2)} / p99 ${s.p99ms.toFixed(2)} / max ${s.maxMs.toFixed(2)} ms`
        log(
          `reader lag (${l.condition}), ${l.blocks} blocks: newHeads ${f(l.newHeads)}; eth_blockNumber ${f(l.blockNumber)}; forkchoiceUpdated itself ${f(l.forkchoiceMs)}; poll round trip p50 ${l.pollRoundTripMs.p50ms.toFixed(2)} ms; missed ${l.missed}`,
        )
      }
    }
    return {
      readerWorkers: READER_WORKERS,
      txs: hashes.length,
      haproxy:
        configTexts.size === 0 && !lagWanted
          ? undefined
          : { path: hp, configs: [...configTexts].map(([readers, configText]) => ({ readers, configText })) },
      rows,
      allRounds,
      lag,
    }
  } finally {
    for (const r of readers) await r.stop()
    await node.stop()
  }
}
