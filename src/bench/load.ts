import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { parseFlags } from '../cli/args.js'
import { spawnNode } from '../testing/spawnNode.js'
import { kzgLoaded } from './nodeSettled.js'
import { REPO_ROOT } from '../testing/paths.js'
import { type PayloadCall, mineAll, mineOne, recipient, rpcClient, sendAll, signTransfers } from './chainGen.js'
import { describeReplay, replayAgainstPlain, replayTable } from './replay.js'
import { runEvmReads } from './evmReads.js'
import { STATE_READS, runStateReads } from './stateReads.js'
import { LOG_READS, runLogReads } from './logReads.js'
import { runFanout } from './fanout.js'
import { runBlobSends } from './blobSends.js'
import { describeDevSends, runDevSends } from './devSends.js'
import { runFlood } from './flood.js'
import { ENGINE_FLOODS, runEngineFlood } from './engineFlood.js'
import { runClasses } from './classes.js'
import { type LoadRow, htmlReport } from './report.js'
import { ensureWrk, runWrk, writeBodiesScript } from './wrk.js'
import { cpuSeconds } from './procStat.js'
import { medianRatio } from './anvil.js'
import { READER_LAG, type ReadersRow, runReaders } from './readers.js'

// `npm run bench:load [-- --duration 5 --connections 16,64,256 --txs 3500 --rounds 1 --soak 300 --soak-block 50
// --readers 0,1,2]`: starts Sponge on a
// generated dev chain and a trivial uWebSockets.js server, drives both with wrk (one thread), and replays the chain's
// blocks through engine_newPayloadV4 on a second node against plain EthereumJS; `--readers` adds a node with N
// read-only readers behind HAProxy (readers.ts). Writes bench/results/load.{json,html}.

const args = parseFlags(process.argv.slice(2), {
  rounds: 'string',
  soak: 'string',
  'soak-block': 'string',
  duration: 'string',
  connections: 'string',
  txs: 'string',
  only: 'string',
  cli: 'string',
  out: 'string',
  readers: 'string',
  threads: 'string',
  'sponge-args': 'string',
  count: 'boolean',
})
const seconds = Number(args.flags.get('duration') ?? 5)
const connections = (args.flags.get('connections') ?? '16,64,256').split(',').map(Number)
const txCount = Number(args.flags.get('txs') ?? 3500)
const only = args.flags.get('only')
// Another build's CLI (bench:compare), and where to write the JSON result.
const cli = args.flags.get('cli')
const outFile = args.flags.get('out')
// Count, in every reply, the calls answered with a result and those refused (bench:compare: a refusal is no
// throughput). Off by default: wrk's Lua reply callback costs the generator CPU and would move every figure.
const count = args.flags.has('count')
// More flags for the Sponge nodes beside anvil (`--sponge-args '--http.threads 2'`).
const spongeArgs =
  args.flags
    .get('sponge-args')
    ?.split(' ')
    .filter((a) => a !== '') ?? []
const log = (l: string) => process.stderr.write(`${l}\n`)

async function startTrivial(): Promise<{ url: string; proc: ChildProcess }> {
  const file = fileURLToPath(new URL('./trivialServer.js', import.meta.url))
  const proc = spawn(process.execPath, [file, '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(d.toString())
      if (m !== null) resolve(Number(m[1]))
    })
    proc.once('exit', () => reject(new Error('trivial server exited')))
  })
  return { url: `http://127.0.0.1:${port}/`, proc }
}

const wrk = ensureWrk()
const work = mkdtempSync(join(tmpdir(), 'sponge-load-'))
const secret = randomBytes(32)
writeFileSync(join(work, 'jwt.hex'), secret.toString('hex'))
const spec = new ChainSpec(devGenesis())
const nodeArgs = (dir: string) => [
  '--chain',
  'dev',
  '--datadir',
  join(work, dir),
  '--http.api',
  'eth,net,web3,testing',
  '--no-mining',
  '--miner.gaslimit',
  '36000000',
  '--authrpc.jwtsecret',
  join(work, 'jwt.hex'),
]

log(`generating ${txCount} transfers…`)
const node = await spawnNode(nodeArgs('a'), 120_000, cli)
const http = rpcClient(node.httpUrl)
const engine = rpcClient(node.authUrl!, secret)
const hashes = await sendAll(node.httpUrl, signTransfers(spec, txCount))
const payloads: PayloadCall[] = await mineAll(engine, http)
log(`chain: ${payloads.length} blocks, ${hashes.length} transactions`)
const head = (await http('eth_getBlockByNumber', ['latest', false])) as { hash: string; number: string }

const body = (method: string, params: unknown[], id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params })
const positions = payloads.flatMap((p) => p.payload.transactions.map((_, i) => [p.payload.blockNumber, `0x${i.toString(16)}`]))
const batches: string[] = []
for (let i = 0; i + 100 <= hashes.length && batches.length < 40; i += 100) {
  batches.push(
    `[${hashes
      .slice(i, i + 100)
      .map((h, k) => body('eth_getTransactionReceipt', [h], k))
      .join(',')}]`,
  )
}
const workloads: { name: string; bodies: string[]; callsPerRequest: number; url: string; pid?: number }[] = []
const trivial = await startTrivial()
const add = (name: string, bodies: string[], callsPerRequest = 1, url = node.httpUrl, pid?: number) => {
  if (only === undefined || new RegExp(only).test(name)) workloads.push({ name, bodies, callsPerRequest, url, ...(pid === undefined ? {} : { pid }) })
}
// --threads 1,2: a node per count (--http.threads), each on its own copy of the generated chain, all up at once and
// measured in turn, interleaved with the other workloads: receipts and eth_getBalance at the head, per count.
const threadCounts = args.flags.get('threads')?.split(',').map(Number) ?? []
const threadNodes = []
for (const n of threadCounts) {
  // No block is being written now (the chain is mined): the copy is the store as it stands.
  cpSync(join(work, 'a'), join(work, `threads${n}`), { recursive: true })
  rmSync(join(work, `threads${n}`, 'LOCK'), { force: true })
  rmSync(join(work, `threads${n}`, 'chain.mdb-lock'), { force: true })
  const t = await spawnNode([...nodeArgs(`threads${n}`), '--http.threads', String(n)], 120_000, cli)
  await kzgLoaded(t)
  threadNodes.push(t)
  add(
    `threads=${n} eth_getTransactionReceipt`,
    hashes.map((h) => body('eth_getTransactionReceipt', [h])),
    1,
    t.httpUrl,
    t.process.pid,
  )
  add(
    `threads=${n} eth_getBalance`,
    hashes.map((_, i) => body('eth_getBalance', [recipient(i), 'latest'])),
    1,
    t.httpUrl,
    t.process.pid,
  )
}
const TRIVIAL = 'trivial uWS server'
add(TRIVIAL, [body('eth_chainId', [])], 1, trivial.url)
add('eth_chainId', [body('eth_chainId', [])])
add(
  'eth_getTransactionReceipt',
  hashes.map((h) => body('eth_getTransactionReceipt', [h])),
)
add(
  'eth_getTransactionByBlockNumberAndIndex',
  positions.map((p) => body('eth_getTransactionByBlockNumberAndIndex', p)),
)
add('eth_config', [body('eth_config', [])])
add(
  'eth_getBlockByNumber',
  Array.from({ length: Number(BigInt(head.number)) + 1 }, (_, n) => body('eth_getBlockByNumber', [`0x${n.toString(16)}`, false])),
)
add('batch of 100 receipts', batches, 100)
add('testing_buildBlockV1', [
  body('testing_buildBlockV1', [
    head.hash,
    {
      timestamp: `0x${(Math.floor(Date.now() / 1000) + 100).toString(16)}`,
      prevRandao: `0x${'00'.repeat(32)}`,
      suggestedFeeRecipient: `0x${'00'.repeat(20)}`,
      withdrawals: [],
      parentBeaconBlockRoot: `0x${'00'.repeat(32)}`,
    },
    [],
    null,
  ]),
])

/**
 * Resident memory of a process in MiB: all of it, and the anonymous part (heaps, stacks) without the file-backed
 * pages of LMDB's memory map, which grow with the database and the kernel may drop at will.
 */
function rssMiB(pid: number): { total: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024
  return { total: kb('VmRSS'), anon: kb('RssAnon') }
}

/**
 * Mixed read/write soak: wrk reads receipts at 64 connections while a writer pools transfers and makes a block of
 * them through the engine about every second (`--soak-block`: transfers a block, 50 by default; 714 fill 15 M gas,
 * signed a block at a time as the soak goes). After a 20 s warm-up, the node's resident memory is sampled every 5 s.
 */
interface SoakResult {
  samplesMiB: { total: number; anon: number }[]
  total: { baselineMiB: number; minPct: number; maxPct: number }
  anon: { baselineMiB: number; minPct: number; maxPct: number }
  blocks: number
  /** Transactions in the blocks made. */
  transactions: number
}

async function soak(secondsTotal: number, perRound: number): Promise<SoakResult> {
  const warmup = 20
  const script = writeBodiesScript(
    work,
    'soak',
    hashes.map((h) => body('eth_getTransactionReceipt', [h])),
  )
  const reader = runWrk(wrk, node.httpUrl, script, 64, secondsTotal + warmup)
  const started = Date.now()
  const samples: { total: number; anon: number }[] = []
  let blocks = 0
  let transactions = 0
  let next = txCount
  let nextSample = started + warmup * 1000
  while (Date.now() - started < (secondsTotal + warmup) * 1000) {
    await sendAll(node.httpUrl, signTransfers(spec, perRound, next))
    next += perRound
    transactions += (await mineOne(engine, http)).transactions
    blocks++
    if (Date.now() >= nextSample) {
      samples.push(rssMiB(node.process.pid!))
      nextSample += 5000
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  await reader
  const drift = (values: number[]) => {
    const base = values[0] ?? Number.NaN
    const pct = (v: number) => ((v - base) / base) * 100
    return { baselineMiB: base, minPct: pct(Math.min(...values)), maxPct: pct(Math.max(...values)) }
  }
  return { samplesMiB: samples, total: drift(samples.map((x) => x.total)), anon: drift(samples.map((x) => x.anon)), blocks, transactions }
}

// With --rounds N every workload is measured N times, the rounds interleaved (all workloads, then again), and the
// best round is reported: on a shared machine a round can lose half its CPU to neighbours (steal), and the best round
// is the one least disturbed. Every round is kept in the JSON. The selections beside anvil measure N pairs instead,
// the order alternating, and report the median pair's ratio with every pair's (bench/anvil.ts).
const rounds = Number(args.flags.get('rounds') ?? 1)
const scripts = new Map<string, string>()
for (const w of workloads) {
  const first = await (await fetch(w.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: w.bodies[0] })).text()
  if (first.includes('"error"')) throw new Error(`${w.name}: preflight answered an error: ${first.slice(0, 200)}`)
  scripts.set(w.name, writeBodiesScript(work, w.name.replace(/\W+/g, '_'), w.bodies, count))
}
const byRound: LoadRow[][] = []
for (let round = 0; round < rounds; round++) {
  const thisRound: LoadRow[] = []
  byRound.push(thisRound)
  for (const w of workloads) {
    const script = scripts.get(w.name)!
    for (const c of connections) {
      // Warm-up, then the measured run.
      await runWrk(wrk, w.url, script, c, 1)
      const pid = w.pid ?? (w.url === trivial.url ? trivial.proc.pid! : node.process.pid!)
      const cpu0 = cpuSeconds(pid)
      const t0 = performance.now()
      const r = await runWrk(wrk, w.url, script, c, seconds)
      const nodeCpu = (cpuSeconds(pid) - cpu0) / ((performance.now() - t0) / 1000)
      const row: LoadRow = { workload: w.name, connections: c, ...r, callsPerSec: r.requestsPerSec * w.callsPerRequest, nodeCpu }
      thisRound.push(row)
      log(
        `${w.name} c=${c}: ${row.requestsPerSec.toFixed(0)} req/s, p50 ${row.p50ms}ms p99 ${row.p99ms}ms, errors ${row.errors}, node CPU ${(nodeCpu * 100).toFixed(0)}%, wrk CPU ${(r.generatorCpu * 100).toFixed(0)}%`,
      )
    }
  }
}
const allRounds = byRound.flat()
const rows: LoadRow[] = []
for (const row of allRounds) {
  const i = rows.findIndex((r) => r.workload === row.workload && r.connections === row.connections)
  if (i < 0) rows.push(row)
  else if (row.requestsPerSec > rows[i]!.requestsPerSec) rows[i] = row
}
// Overload: public batches of state reads flood the HTTP port while the engine makes blocks on the auth port.
const FLOOD = 'flood'
const flood =
  only === undefined || new RegExp(only).test(FLOOD)
    ? await runFlood({ wrk, work, httpUrl: node.httpUrl, engine, connections: [4, ...connections], seconds, log })
    : undefined
// The engine's latencies alone and under public floods of logs, batches, state reads and calls (issue 31 item 3).
const engineFloods =
  only === undefined || ENGINE_FLOODS.some((name) => new RegExp(only).test(name))
    ? await runEngineFlood({ wrk, work, cli, seconds, connections: 16, spongeArgs, only: only === undefined ? undefined : new RegExp(only), log })
    : undefined
// Admission by cost: each class's goodput alone and under a flood of the other, from two clients.
const CLASSES = 'classes'
const classes =
  only === undefined || new RegExp(only).test(CLASSES)
    ? await runClasses({ wrk, work, httpUrl: node.httpUrl, receipts: hashes, seconds, log })
    : undefined
// What the selections beside anvil share.
const besideAnvilOptions = {
  wrk,
  work,
  cli,
  connections,
  seconds,
  count,
  spongeArgs,
  rounds,
  only: only === undefined ? undefined : new RegExp(only),
  log,
}
// The EVM-backed reads against anvil on the same genesis.
const EVM_READS = ['eth_call balanceOf', 'eth_estimateGas token transfer', 'debug_traceTransaction callTracer']
const evmReads = only === undefined || EVM_READS.some((name) => new RegExp(only).test(name)) ? await runEvmReads(besideAnvilOptions) : undefined
// State reads against anvil on the same genesis.
const stateReads = only === undefined || STATE_READS.some((name) => new RegExp(only).test(name)) ? await runStateReads(besideAnvilOptions) : undefined
const logReads = only === undefined || LOG_READS.some((name) => new RegExp(only).test(name)) ? await runLogReads(besideAnvilOptions) : undefined
const FANOUT = 'newHeads fan-out'
const fanout = only === undefined || new RegExp(only).test(FANOUT) ? await runFanout({ work, cli, log }) : undefined
const BLOB_SENDS = 'blob sends'
const blobSends = only === undefined || new RegExp(only).test(BLOB_SENDS) ? await runBlobSends({ work, cli, log }) : undefined
// Dev-chain sends beside anvil (issue 30 item 6): sequential sends to their receipts, a viem burst, a wallet burst.
const DEV_SENDS = 'dev sends'
const devSends =
  only === undefined || new RegExp(only).test(DEV_SENDS) ? await runDevSends({ work, cli, spongeArgs, rounds: Math.max(3, rounds), log }) : undefined
const soakSeconds = Number(args.flags.get('soak') ?? 0)
const memory = soakSeconds > 0 ? await soak(soakSeconds, Number(args.flags.get('soak-block') ?? 50)) : undefined
if (memory !== undefined) {
  const line = (name: string, d: SoakResult['total']) =>
    `${name} ${d.baselineMiB.toFixed(0)} MiB after warm-up, range ${d.minPct.toFixed(1)}% … +${d.maxPct.toFixed(1)}%`
  log(
    `soak: ${memory.blocks} blocks of ${(memory.transactions / memory.blocks).toFixed(0)} transactions on average; ${line('RSS', memory.total)}; ${line('anonymous RSS', memory.anon)}`,
  )
}
trivial.proc.kill()
for (const t of threadNodes) await t.stop()
await node.stop()

// The node and N readers on its datadir behind HAProxy (readers.ts): with --readers, or --only naming the lag alone.
const readersFlag = args.flags.get('readers')
const readers =
  readersFlag !== undefined || (only !== undefined && new RegExp(only).test(READER_LAG))
    ? await runReaders({
        wrk,
        work,
        cli,
        readers: readersFlag === undefined ? [] : readersFlag.split(',').map(Number),
        connections,
        seconds,
        rounds,
        txs: txCount,
        only: only === undefined ? undefined : new RegExp(only),
        log,
      })
    : undefined

// Write path: the same blocks through engine_newPayloadV4 + forkchoiceUpdatedV3 on a fresh node, one at a time.
const REPLAY = 'engine_newPayloadV4 replay'
const execution =
  only === undefined || new RegExp(only).test(REPLAY)
    ? await replayAgainstPlain({ nodeArgs: nodeArgs('b'), jwtSecret: secret, genesis: devGenesis(), payloads, cli, log })
    : undefined
if (execution !== undefined) log(describeReplay(execution))

/**
 * A workload's rate over the trivial server's in the same round at the same connections (issue 32 item 4's measure),
 * the median of the rounds: each side's best round, as the req/s column gives it, may come from different rounds.
 */
function overTrivial(r: LoadRow): string {
  const ratios: number[] = []
  for (const measured of byRound) {
    const t = measured.find((x) => x.workload === TRIVIAL && x.connections === r.connections)
    const w = measured.find((x) => x.workload === r.workload && x.connections === r.connections)
    if (t !== undefined && w !== undefined && t.requestsPerSec > 0) ratios.push(w.requestsPerSec / t.requestsPerSec)
  }
  return ratios.length === 0 || r.workload === TRIVIAL ? '' : medianRatio(ratios).toFixed(2)
}
// The wrk workloads' table, when any ran: a selection of only the flood, the beside-anvil reads or the fan-out has no
// row here, and console.table of nothing printed an empty box in place of their figures.
if (rows.length > 0)
  console.table(
    rows.map((r) => ({
      workload: r.workload,
      c: r.connections,
      'req/s': Math.round(r.requestsPerSec),
      'calls/s': Math.round(r.callsPerSec),
      p50: r.p50ms,
      p99: r.p99ms,
      errors: r.errors,
      nodeCpu: `${(r.nodeCpu * 100).toFixed(0)}%`,
      wrkCpu: `${(r.generatorCpu * 100).toFixed(0)}%`,
      '÷ trivial (median of rounds)': overTrivial(r),
    })),
  )
if (flood !== undefined)
  console.table(
    flood.map((r) => ({
      workload: 'flood: batches of 100 state reads',
      c: r.connections,
      'calls/s served': Math.round(r.resultsPerSec),
      'refused/s (-32005)': Math.round(r.refusedPerSec),
      'HTTP errors/s': Math.round(r.http503PerSec),
      p50: r.p50ms,
      p99: r.p99ms,
      'engine blocks': r.engine.blocks,
      'forkchoice p50/p99 ms': `${r.engine.forkchoiceP50.toFixed(1)} / ${r.engine.forkchoiceP99.toFixed(1)}`,
      'newPayload p50/p99 ms': `${r.engine.newPayloadP50.toFixed(1)} / ${r.engine.newPayloadP99.toFixed(1)}`,
      'engine failures': r.engine.failures.length,
    })),
  )
if (classes !== undefined)
  console.table(
    classes.map((r) => ({
      class: r.class,
      'flood by another client': r.flood,
      'results/s': Math.round(r.resultsPerSec),
      'of alone': r.ratioToAlone === undefined ? '-' : `×${r.ratioToAlone.toFixed(2)}`,
      p50: Number(r.p50ms.toFixed(1)),
      p99: Number(r.p99ms.toFixed(1)),
      'refused/s (-32005)': Math.round(r.refusedPerSec),
      'other errors/s': Math.round(r.otherErrorsPerSec),
      'HTTP errors': r.httpErrors,
      'flooder results/s': r.flooder === undefined ? '-' : Math.round(r.flooder.resultsPerSec),
      'flooder refused/s': r.flooder === undefined ? '-' : Math.round(r.flooder.refusedPerSec),
      'flooder other errors/s': r.flooder === undefined ? '-' : Math.round(r.flooder.otherErrorsPerSec),
      'flooder HTTP errors/s': r.flooder === undefined ? '-' : Math.round(r.flooder.httpErrorsPerSec),
    })),
  )
if (fanout !== undefined)
  console.table(
    fanout.map((r) => ({
      workload: FANOUT,
      server: r.server,
      subscribers: r.subscribers,
      blocks: r.blocks,
      'first ms (median)': Number(r.firstMs.toFixed(1)),
      'last ms (median)': Number(r.lastMs.toFixed(1)),
      'worst last ms': Number(r.worstLastMs.toFixed(1)),
    })),
  )
if (blobSends !== undefined)
  console.table(
    blobSends.map((r) => ({
      workload: BLOB_SENDS,
      server: r.server,
      sidecar: r.sidecar,
      'first send after, s': r.delayMs / 1000,
      'first send ms': Math.round(r.firstSendMs),
      'first receipt ms': Math.round(r.firstReceiptMs),
      'later send ms (median)': Math.round(r.laterSendMs),
      'later receipt ms (median)': Math.round(r.laterReceiptMs),
      'later worst send ms': Math.round(r.laterWorstSendMs),
    })),
  )
if (devSends !== undefined) for (const l of describeDevSends(devSends.summary)) console.log(`${DEV_SENDS}: ${l}`)
if (readers !== undefined && readers.rows.length > 0) {
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`
  // CPU microseconds per request, of every process serving it (node, readers, HAProxy; wrk apart).
  const perRequest = (r: ReadersRow) => ((r.cpu.node.total + r.cpu.readers.reduce((s, x) => s + x.total, 0) + r.cpu.haproxy) / r.requestsPerSec) * 1e6
  console.table(
    readers.rows.map((r) => ({
      workload: r.workload,
      N: r.readers,
      via: r.via,
      c: r.connections,
      'req/s': Math.round(r.requestsPerSec),
      p50: r.p50ms,
      p99: r.p99ms,
      errors: r.errors + (r.errorRepliesPerSec ?? 0),
      node: `${pct(r.cpu.node.total)} (serving ${pct(r.cpu.node.main)})`,
      readers: r.cpu.readers.map((x) => `${pct(x.total)} (${pct(x.main)})`).join(' '),
      haproxy: pct(r.cpu.haproxy),
      wrk: pct(r.cpu.wrk),
      machine: `${pct(r.cpu.machine.busy)} (softirq ${pct(r.cpu.machine.softirq)})`,
      'CPU µs/req': Math.round(perRequest(r)),
    })),
  )
}
if (readers !== undefined && readers.lag.length > 0)
  console.table(
    readers.lag.map((l) => ({
      workload: READER_LAG,
      condition: l.condition,
      blocks: l.blocks,
      'newHeads p50/p99 ms': `${l.newHeads.p50ms.toFixed(2)} / ${l.newHeads.p99ms.toFixed(2)}`,
      'eth_blockNumber p50/p99 ms': `${l.blockNumber.p50ms.toFixed(2)} / ${l.blockNumber.p99ms.toFixed(2)}`,
      'forkchoiceUpdated p50/p99 ms': `${l.forkchoiceMs.p50ms.toFixed(2)} / ${l.forkchoiceMs.p99ms.toFixed(2)}`,
      'poll round trip p50 ms': l.pollRoundTripMs.p50ms.toFixed(2),
      missed: l.missed,
    })),
  )
// The selections measured beside anvil: Sponge's and anvil's rate side by side, and their ratio.
const besideAnvil = [...(evmReads ?? []), ...(stateReads ?? []), ...(logReads ?? [])]
if (besideAnvil.length > 0) {
  const anvilRate = (w: string, c: number) => besideAnvil.find((r) => r.workload === w && r.connections === c && r.server === 'anvil')?.requestsPerSec
  console.table(
    besideAnvil
      .filter((r) => r.server === 'sponge')
      .map((r) => {
        const theirs = anvilRate(r.workload, r.connections)
        return {
          workload: r.workload,
          c: r.connections,
          'sponge req/s': Math.round(r.requestsPerSec),
          'anvil req/s': Math.round(theirs ?? 0),
          // With rounds, the median of the pairs' ratios (bench/anvil.ts) and every pair's.
          ratio: r.ratios !== undefined ? medianRatio(r.ratios).toFixed(2) : theirs ? (r.requestsPerSec / theirs).toFixed(2) : '-',
          ...(r.ratios === undefined ? {} : { pairs: r.ratios.map((x) => x.toFixed(2)).join(' ') }),
          identical: r.identicalReplies,
          'CPU µs/req sponge': r.cpuUsPerRequest ?? '-',
          'CPU µs/req anvil':
            besideAnvil.find((a) => a.workload === r.workload && a.connections === r.connections && a.server === 'anvil')?.cpuUsPerRequest ?? '-',
          'serving threads': r.servingThreadBusy ?? '-',
          ...(r.gasPerRequest === undefined ? {} : { 'Mgas/s': ((r.requestsPerSec * r.gasPerRequest) / 1e6).toFixed(1) }),
        }
      }),
  )
}
const out = join(REPO_ROOT, 'bench', 'results')
mkdirSync(out, { recursive: true })
const result = {
  date: new Date().toISOString(),
  node: process.version,
  seconds,
  connections,
  rounds,
  rows,
  allRounds,
  flood,
  engineFloods,
  classes,
  evmReads,
  stateReads,
  logReads,
  fanout,
  blobSends,
  devSends,
  readers,
  execution,
  memory,
}
writeFileSync(outFile ?? join(out, 'load.json'), `${JSON.stringify(result, null, 2)}\n`)
const execHtml =
  execution === undefined ? '' : replayTable(`engine_newPayloadV4 replay (${execution.blocks.length} blocks of ETH transfers)`, execution)
if (outFile === undefined) writeFileSync(join(out, 'load.html'), htmlReport(`Sponge bench:load ${result.date}`, rows, execHtml))
log(`wrote ${outFile ?? `${join(out, 'load.json')} and load.html`}`)
rmSync(work, { recursive: true, force: true })
process.exit(0)
