import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devGenesis } from '../chain/dev.js'
import type { GethGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { parseFlags } from '../cli/args.js'
import { spawnNode } from '../testing/spawnNode.js'
import { REPO_ROOT } from '../testing/paths.js'
import { type PayloadCall, mineAll, post, rpcClient, sendAll, signTxs } from './chainGen.js'
import { type ReplayResult, describeReplay, replayAgainstPlain, replayTable } from './replay.js'
import { WORKLOADS, type Workload, tokensOverState } from './workloads.js'
import { PHASES } from '../util/blockPhases.js'

// `npm run bench:exec [-- --blocks 3 --mixed-blocks 40 --state 10000,100000 --only <regexp> --save <dir> --from <dir> --cli <main.js> --no-phases]`: for
// each execution workload (src/bench/workloads), generates full 36 M-gas blocks (the mixed workload: a stream of ~15 M-gas ones) on one
// Sponge node through the engine, then replays them through engine_newPayloadV4 on a fresh node and through plain
// EthereumJS runBlock (default crypto) in the same run. Writes bench/results/exec.{json,html}. --save keeps each
// workload's genesis and payloads (to profile a replay). The replaying node keeps metrics, and where its blocks' time
// went (senders, execution, state reads, receipts, commit, stored replies, store; util/blockPhases.ts) is read from
// them and printed per workload; --no-phases runs it without, as a node runs by default. --from replays what --save
// kept instead of generating (the same blocks again, e.g. for two builds), and --cli runs another build's node or
// dist/bench/profiledCli.js (the replaying node under V8's profiler).

const GAS_LIMIT = 36_000_000
const args = parseFlags(process.argv.slice(2), {
  blocks: 'string',
  'mixed-blocks': 'string',
  state: 'string',
  only: 'string',
  save: 'string',
  from: 'string',
  cli: 'string',
  'no-phases': 'boolean',
})
/** The replaying node keeps metrics and its blocks' phases are reported; --no-phases: the node as it runs by default. */
const phases = !args.flags.has('no-phases')
const blocks = Number(args.flags.get('blocks') ?? 3)
/** The mixed workload's stream: enough blocks for its latency percentiles. */
const mixedBlocks = Number(args.flags.get('mixed-blocks') ?? 40)
const only = args.flags.get('only')
/** --state 10000,100000: the token workload again over that many more accounts and holders each (the cost curve). */
const stateSizes = (args.flags.get('state') ?? '')
  .split(',')
  .filter((s) => s !== '')
  .map(Number)
const saveDir = args.flags.get('save')
const fromDir = args.flags.get('from')
const cli = args.flags.get('cli')
const log = (l: string) => process.stderr.write(`${l}\n`)

const work = mkdtempSync(join(tmpdir(), 'sponge-exec-'))
const secret = randomBytes(32)
const jwtFile = join(work, 'jwt.hex')
writeFileSync(jwtFile, secret.toString('hex'))

/** Every transaction must have succeeded: a reverting workload would measure the wrong thing. */
async function checkReceipts(url: string, hashes: string[]): Promise<void> {
  for (let i = 0; i < hashes.length; i += 100) {
    const batch = hashes.slice(i, i + 100).map((h, k) => ({ jsonrpc: '2.0', id: k, method: 'eth_getTransactionReceipt', params: [h] }))
    const res = await post(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    for (const r of (await res.json()) as { result: { status: string; transactionHash: string } | null }[]) {
      if (r.result === null) throw new Error('a generated transaction was not mined')
      if (r.result.status !== '0x1') throw new Error(`generated transaction ${r.result.transactionHash} failed`)
    }
  }
}

/** A node's start-up time grows with its genesis state (written to the trie at the first start). */
const startTimeout = (w: Workload) => 120_000 + Object.keys(w.alloc).length

async function generate(w: Workload, genesisFile: string, spec: ChainSpec): Promise<PayloadCall[]> {
  // The builder stops once a transaction's gas limit no longer fits: keep that margin so that blocks come out full.
  const perBlock =
    w.blockGas === undefined ? Math.floor((GAS_LIMIT - Number(w.tx(0).gasLimit) + w.gasPerTx) / w.gasPerTx) : Math.floor(w.blockGas / w.gasPerTx)
  const blockCount = w.blockGas === undefined ? blocks : mixedBlocks
  const count = blockCount * perBlock
  const node = await spawnNode(
    [
      '--chain',
      genesisFile,
      '--datadir',
      join(work, `${w.name}-gen`),
      '--no-mining',
      '--miner.gaslimit',
      String(GAS_LIMIT),
      '--authrpc.jwtsecret',
      jwtFile,
      '--txpool.size',
      String(count + 100),
      '--txpool.accountslots',
      String(count + 100),
    ],
    startTimeout(w),
  )
  try {
    log(`${w.name}: signing ${count} transactions (${w.description})…`)
    const raws = signTxs(spec, count, (i) => w.tx(i))
    const engine = rpcClient(node.authUrl!, secret)
    const http = rpcClient(node.httpUrl)
    const hashes: string[] = []
    const payloads: PayloadCall[] = []
    // Full blocks: pool everything and mine until empty. Partial ones: one block's worth at a time.
    const batch = w.blockGas === undefined ? raws.length : perBlock
    for (let i = 0; i < raws.length; i += batch) {
      hashes.push(...(await sendAll(node.httpUrl, raws.slice(i, i + batch))))
      payloads.push(...(await mineAll(engine, http)))
    }
    await checkReceipts(node.httpUrl, hashes)
    return payloads
  } finally {
    await node.stop()
  }
}

interface Row {
  workload: string
  description: string
  result: ReplayResult
}

const rows: Row[] = []
for (const w of [...WORKLOADS, ...stateSizes.map(tokensOverState)]) {
  if (only !== undefined && !new RegExp(only).test(w.name)) continue
  const saved = fromDir === undefined ? undefined : join(fromDir, w.name)
  if (saved !== undefined && !existsSync(`${saved}.payloads.json`)) continue
  const genesis: GethGenesisFile = saved === undefined ? devGenesis() : (JSON.parse(readFileSync(`${saved}.genesis.json`, 'utf8')) as GethGenesisFile)
  if (saved === undefined) genesis.alloc = { ...genesis.alloc, ...w.alloc }
  const genesisFile = join(work, `${w.name}.json`)
  writeFileSync(genesisFile, JSON.stringify(genesis))
  const payloads =
    saved === undefined
      ? await generate(w, genesisFile, new ChainSpec(genesis))
      : (JSON.parse(readFileSync(`${saved}.payloads.json`, 'utf8')) as PayloadCall[])
  if (saveDir !== undefined) {
    mkdirSync(saveDir, { recursive: true })
    writeFileSync(join(saveDir, `${w.name}.genesis.json`), JSON.stringify(genesis))
    writeFileSync(join(saveDir, `${w.name}.payloads.json`), JSON.stringify(payloads))
  }
  const result = await replayAgainstPlain({
    nodeArgs: ['--chain', genesisFile, '--datadir', join(work, `${w.name}-replay`), '--no-mining', '--authrpc.jwtsecret', jwtFile],
    jwtSecret: secret,
    genesis,
    payloads,
    log,
    startTimeoutMs: startTimeout(w),
    phases,
    ...(cli === undefined ? {} : { cli }),
  })
  log(`${w.name}: ${describeReplay(result)}`)
  rows.push({ workload: w.name, description: w.description, result })
}

/**
 * newPayload over the blocks after the first ("warm"), and the first apart: the first block of a fresh node pays for
 * compiling the execution path, which a running node paid long ago.
 */
function warm(blocks: ReplayResult['blocks']): Record<string, number> {
  const rest = blocks.slice(1)
  const ms = rest.map((b) => b.newPayloadMs).sort((a, b) => a - b)
  const at = (q: number) => +(ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)] ?? Number.NaN).toFixed(0)
  const seconds = ms.reduce((a, b) => a + b, 0) / 1000
  return {
    'warm tx/s': Math.round(rest.reduce((a, b) => a + b.txs, 0) / seconds),
    'first ms': +blocks[0]!.newPayloadMs.toFixed(0),
    'p50 ms': at(0.5),
    'p99 ms': at(0.99),
  }
}

const summary = rows.map(({ workload, result: r }) => {
  const full = r.blocks.filter((b) => b.gasUsed > GAS_LIMIT * 0.9)
  return {
    workload,
    blocks: r.blocks.length,
    'txs/block': Math.round(r.blocks.reduce((a, b) => a + b.txs, 0) / r.blocks.length),
    'Mgas/block': +(r.blocks.reduce((a, b) => a + b.gasUsed, 0) / r.blocks.length / 1e6).toFixed(1),
    'max ms (full block)': full.length === 0 ? null : +Math.max(...full.map((b) => b.newPayloadMs)).toFixed(0),
    'Sponge tx/s': Math.round(r.sponge.txPerSec),
    'Sponge Mgas/s': +r.sponge.mgasPerSec.toFixed(1),
    'plain tx/s': Math.round(r.plain.txPerSec),
    'plain Mgas/s': +r.plain.mgasPerSec.toFixed(1),
    ratio: +r.speedup.toFixed(2),
    ...warm(r.blocks),
  }
})
console.table(summary)
/** Where each workload's warm blocks spent their time in the node: ms per block, and the share of the phases' sum. */
const split = rows.flatMap(({ workload, result: r }) => {
  if (r.phases === undefined) return []
  const w = r.phases.warm
  const total = PHASES.reduce((a, p) => a + w[p], 0)
  return [
    {
      workload,
      'ms/block': +total.toFixed(1),
      ...Object.fromEntries(PHASES.map((p) => [p, `${w[p].toFixed(1)} (${total === 0 ? 0 : Math.round((100 * w[p]) / total)}%)`])),
    },
  ]
})
if (split.length > 0) {
  log('warm blocks in the replaying node, by phase (ms per block, share):')
  console.table(split)
}
const out = join(REPO_ROOT, 'bench', 'results')
mkdirSync(out, { recursive: true })
const date = new Date().toISOString()
writeFileSync(join(out, 'exec.json'), `${JSON.stringify({ date, node: process.version, gasLimit: GAS_LIMIT, summary, rows }, null, 2)}\n`)
const html = `<!doctype html><meta charset="utf-8"><title>Sponge bench:exec ${date}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}</style>
<h1>Sponge bench:exec ${date}</h1>
${rows.map((r) => replayTable(`${r.workload}: ${r.description}`, r.result)).join('\n')}`
writeFileSync(join(out, 'exec.html'), html)
log(`wrote ${join(out, 'exec.json')} and exec.html`)
rmSync(work, { recursive: true, force: true })
process.exit(0)
