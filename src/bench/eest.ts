import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { dirFlag, parseFlags } from '../cli/args.js'
import { type EngineCall, type FixtureRun, readEngineFixture } from '../conformance/engineFixture.js'
import { type CaseNode, genesisVerdict, startCaseNode, stepVerdict } from '../conformance/eest.js'
import { runPlainEthereumjs } from '../testing/plainEthereumjs.js'
import { cpuSeconds } from './procStat.js'
import { kzgLoaded } from './nodeSettled.js'
import { decodeTx } from '../exec/txDecode.js'
import { hexToBytes } from '../util/hex.js'
import { REPO_ROOT } from '../testing/paths.js'
import { payloadAttributes } from '../testing/engineBlocks.js'

// `npm run bench:eest -- --fixtures <dir> [--only <regexp>] [--gas value_100M] [--limit <n>] [--blocks <n>] [--warm <n>] [--no-plain] [--cli <main.js>] [--sponge-args '--no-precompile-cache']`:
// the execution-spec-tests benchmark fixtures (blockchain_test_engine format: blocks that spend their gas on one
// opcode or precompile) through the Engine API of a fresh `sponge node` per test, beside plain EthereumJS runBlock
// in this process. A test's setup blocks (all but its last) go untimed; then --warm warm-up blocks (default 1, 0 for
// none), untimed, each the timed block's first transaction alone, built by the node (testing_buildBlockV1) on the
// same parent (siblings apart by their extraData) and sent by engine_newPayload but never made the head: V8 optimizes
// the interpreter's one large loop only after some hundreds of milliseconds in it, which one 10 M-gas block may not
// give. Then the timed block (engine_newPayloadVx, then forkchoiceUpdated).
// Plain EthereumJS runs the setup and warm-up blocks first as well, untimed, in the same process. Reports Mgas/s per
// fixture and per family (the fixture's folder under --fixtures, `instruction/` dropped) and the ratio to plain.

const args = parseFlags(process.argv.slice(2), {
  fixtures: 'string',
  only: 'string',
  gas: 'string',
  limit: 'string',
  blocks: 'string',
  warm: 'string',
  'no-plain': 'boolean',
  cli: 'string',
  'sponge-args': 'string',
})
const root = (() => {
  try {
    return dirFlag(args.flags, 'fixtures', 'a directory of blockchain_tests_engine fixture files')
  } catch (e) {
    process.stderr.write(
      `${(e as Error).message}\n\nusage: npm run bench:eest -- --fixtures <dir of blockchain_tests_engine JSON> [--only <regexp>] [--gas value_100M]\n`,
    )
    process.exit(2)
  }
})()
/** Picks fixture files by their path under --fixtures (e.g. `bitwise|keccak`). */
const only = new RegExp(args.flags.get('only') ?? '')
/** Picks the tests of a file by name: EEST fills each benchmark at several block gas values. */
const gasPick = args.flags.get('gas') ?? 'value_100M'
const limit = Number(args.flags.get('limit') ?? Number.POSITIVE_INFINITY)
/** At most this many blocks of a test are sent (its last one timed), to bound the run on long fixtures. */
const maxBlocks = Number(args.flags.get('blocks') ?? Number.POSITIVE_INFINITY)
/** Warm-up blocks before the timed one, on both sides. */
const warmUps = Number(args.flags.get('warm') ?? 1)
const plain = !args.flags.has('no-plain')
/** Another CLI script for the node, e.g. dist/bench/profiledCli.js to profile it. */
const cli = args.flags.get('cli')
/** More of the node's flags, e.g. `--no-precompile-cache` to measure every precompile call run. */
const spongeArgs = (args.flags.get('sponge-args') ?? '').split(' ').filter((a) => a !== '')
const log = (l: string) => process.stderr.write(`${l}\n`)
const ZERO32 = `0x${'00'.repeat(32)}`

/** The JSON files under `dir`, as paths relative to it, sorted. */
function jsonFiles(dir: string, under = ''): string[] {
  return readdirSync(join(dir, under))
    .sort()
    .flatMap((name) => {
      const rel = join(under, name)
      if (statSync(join(dir, rel)).isDirectory()) return jsonFiles(dir, rel)
      return name.endsWith('.json') ? [rel] : []
    })
}

/** A fixture file's text, or why it is left out: Git LFS pointers and empty files stand where the data was not fetched. */
function readFixture(path: string): string | { skip: string } {
  const text = readFileSync(path, 'utf8')
  if (text.startsWith('version https://git-lfs')) return { skip: 'a Git LFS pointer' }
  if (!text.trimStart().startsWith('{')) return { skip: 'not JSON' }
  return text
}

const familyOf = (rel: string) => dirname(rel).replace(/^instruction\//, '')

interface Row {
  family: string
  fixture: string
  test: string
  txs: number
  gasUsed: number
  spongeMs?: number
  plainMs?: number
  /** The node process's CPU time over the timed call (all its threads; /proc, 10 ms ticks) and plain's over its runBlock. */
  spongeCpuMs?: number
  plainCpuMs?: number
  error?: string
}

/** The call's answer must be what the fixture expects; the reply's result. */
async function expectCall(n: CaseNode, call: EngineCall): Promise<unknown> {
  const reply = await n.engine(call.method, call.params)
  const why = stepVerdict(call, reply)
  if (why !== undefined) throw new Error(why)
  return reply.result
}

/** The warm-up block: the timed block's first transaction alone, on the same parent, built by the node. */
async function warmUpPayload(
  n: CaseNode,
  timed: EngineCall,
  k: number,
): Promise<{ payload: Record<string, unknown>; requests: unknown[]; blobs: number } | undefined> {
  const payload = timed.params[0] as { parentHash: string; timestamp: string; transactions: string[] }
  if (payload.transactions.length === 0) return undefined
  const built = (await n.read('testing_buildBlockV1', [
    payload.parentHash,
    payloadAttributes(BigInt(payload.timestamp)),
    payload.transactions.slice(0, 1),
    `0x${k.toString(16).padStart(2, '0')}`,
  ])) as { result?: { executionPayload: Record<string, unknown>; executionRequests?: unknown[] }; error?: { message: string } }
  if (built.result === undefined) throw new Error(`testing_buildBlockV1: ${built.error?.message ?? 'no result'}`)
  const blobs = decodeTx(hexToBytes(payload.transactions[0]!)).blobHashes
  return { payload: built.result.executionPayload, requests: built.result.executionRequests ?? [], blobs }
}

async function runCase(fixture: string, c: FixtureRun, work: string): Promise<Row> {
  const blocks = c.blocks.slice(0, maxBlocks)
  const timed = blocks.at(-1)!
  const row: Row = { family: familyOf(fixture), fixture, test: c.name.replace(/^.*\[|\]$/g, ''), txs: timed.txs, gasUsed: Number(timed.gasUsed) }
  const genesisFile = join(work, 'genesis.json')
  writeFileSync(genesisFile, JSON.stringify(c.genesis))
  const n = await startCaseNode(genesisFile, ['--http.api', 'eth,net,web3,testing', ...spongeArgs], cli)
  const warm: NonNullable<Awaited<ReturnType<typeof warmUpPayload>>>[] = []
  try {
    const wrongChain = await genesisVerdict(n, c.chainId, c.genesisHash)
    if (wrongChain !== undefined) throw new Error(wrongChain)
    await kzgLoaded(n.node)
    for (const b of blocks.slice(0, -1)) {
      await expectCall(n, b.newPayload)
      if (b.forkchoiceUpdated !== undefined) await expectCall(n, b.forkchoiceUpdated)
    }
    for (let k = 0; k < warmUps; k++) {
      const w = await warmUpPayload(n, timed.newPayload, k)
      if (w === undefined) break
      warm.push(w)
      const [, hashes, beaconRoot] = timed.newPayload.params
      // The warm-up block holds the timed block's first transaction alone: its blobs' hashes are the first of the list.
      const own = Array.isArray(hashes) ? hashes.slice(0, w.blobs) : hashes
      await expectCall(n, { method: timed.newPayload.method, params: [w.payload, own, beaconRoot ?? ZERO32, w.requests], expect: 'VALID' })
    }
    const pid = n.node.process.pid!
    const c0 = cpuSeconds(pid)
    const t0 = performance.now()
    await expectCall(n, timed.newPayload)
    row.spongeMs = performance.now() - t0
    row.spongeCpuMs = (cpuSeconds(pid) - c0) * 1000
    if (timed.forkchoiceUpdated !== undefined) await expectCall(n, timed.forkchoiceUpdated)
  } finally {
    await n.stop()
  }
  if (plain) {
    // Plain EthereumJS checks the block's roots: a wrong answer of its own fails the row instead of timing it.
    const setup = blocks.slice(0, -1).map((b) => ({ payload: b.newPayload.params[0] as Record<string, unknown> }))
    try {
      for (const w of warm) await runPlainEthereumjs(c.genesis, [...setup, { payload: w.payload }])
      const cpu: number[] = []
      const ms = await runPlainEthereumjs(c.genesis, [...setup, { payload: timed.newPayload.params[0] as Record<string, unknown> }], cpu)
      row.plainMs = ms.at(-1)!
      row.plainCpuMs = cpu.at(-1)!
    } catch (e) {
      row.error = `plain EthereumJS: ${(e as Error).message.split('\n')[0]}`
    }
  }
  return row
}

const mgas = (gas: number, ms: number | undefined) => (ms === undefined ? undefined : gas / 1e3 / ms)
const fixed = (v: number | undefined, digits = 1) => (v === undefined || !Number.isFinite(v) ? null : +v.toFixed(digits))
function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** A test's parameters besides fork, format and gas (e.g. ` opcode_SAR`): the tests of one file apart. */
const variant = (test: string) => {
  const v = /blockchain_test_engine-(.*?)-?benchmark-gas/.exec(test)?.[1] ?? ''
  return v === '' ? '' : ` ${v}`
}

const work = mkdtempSync(join(tmpdir(), 'sponge-eestbench-'))
const rows: Row[] = []
const skipped: { fixture: string; why: string }[] = []
try {
  for (const fixture of jsonFiles(root).filter((f) => only.test(f))) {
    if (rows.length >= limit) break
    const text = readFixture(join(root, fixture))
    if (typeof text !== 'string') {
      skipped.push({ fixture, why: text.skip })
      continue
    }
    const cases = readEngineFixture(text, (name) => name.includes(gasPick))
    if (cases.length === 0) skipped.push({ fixture, why: `no test named *${gasPick}*` })
    for (const c of cases) {
      if (rows.length >= limit) break
      let row: Row
      try {
        row = await runCase(fixture, c, work)
      } catch (e) {
        row = { family: familyOf(fixture), fixture, test: c.name, txs: 0, gasUsed: 0, error: (e as Error).message.split('\n')[0]! }
      }
      rows.push(row)
      const f = figures(row.gasUsed, row)
      log(
        `${fixture}${variant(row.test)}: ${(row.gasUsed / 1e6).toFixed(1)} Mgas, Sponge ${fixed(row.spongeMs, 0)} ms (${f['Sponge Mgas/s']} Mgas/s; CPU ${fixed(row.spongeCpuMs, 0)} ms), plain ${fixed(row.plainMs, 0)} ms (${f['plain Mgas/s']} Mgas/s; CPU ${fixed(row.plainCpuMs, 0)} ms), ×${f.ratio}, CPU ×${f['CPU ratio']}${row.error === undefined ? '' : `; ${row.error}`}`,
      )
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}

/** Both sides' Mgas/s over wall time, their ratio, and the ratio of their CPU times (what a busy machine moves least). */
function figures(gas: number, r: Pick<Row, 'spongeMs' | 'plainMs' | 'spongeCpuMs' | 'plainCpuMs'>) {
  const s = mgas(gas, r.spongeMs)
  const p = mgas(gas, r.plainMs)
  const cpu = r.spongeCpuMs !== undefined && r.plainCpuMs !== undefined && r.spongeCpuMs > 0 ? r.plainCpuMs / r.spongeCpuMs : undefined
  return {
    'Sponge Mgas/s': fixed(s),
    'plain Mgas/s': fixed(p),
    ratio: fixed(s !== undefined && p !== undefined ? s / p : undefined, 2),
    'Sponge CPU Mgas/s': fixed(mgas(gas, r.spongeCpuMs)),
    'plain CPU Mgas/s': fixed(mgas(gas, r.plainCpuMs)),
    'CPU ratio': fixed(cpu, 2),
  }
}

const perFixture = rows.map((r) => ({
  family: r.family,
  fixture: `${r.fixture
    .replace(/\.json$/, '')
    .split('/')
    .at(-1)!}${variant(r.test)}`,
  Mgas: fixed(r.gasUsed / 1e6),
  ...figures(r.gasUsed, r),
  ...(r.error === undefined ? {} : { error: r.error }),
}))
console.table(perFixture)
/** A family's figures: its fixtures' gas over their summed times (only fixtures both sides ran). */
const families = [...new Set(rows.map((r) => r.family))].map((family) => {
  const timed = rows.filter((r) => r.family === family && r.spongeMs !== undefined && r.plainMs !== undefined)
  const sum = (f: (r: Row) => number | undefined) => (timed.length === 0 ? undefined : timed.reduce((a, r) => a + (f(r) ?? 0), 0))
  return {
    family,
    fixtures: timed.length,
    ...figures(sum((r) => r.gasUsed) ?? 0, {
      spongeMs: sum((r) => r.spongeMs),
      plainMs: sum((r) => r.plainMs),
      spongeCpuMs: sum((r) => r.spongeCpuMs),
      plainCpuMs: sum((r) => r.plainCpuMs),
    }),
  }
})
console.table(families)
const ratios = (xs: { ratio: number | null; 'CPU ratio': number | null }[], key: 'ratio' | 'CPU ratio') =>
  xs.flatMap((x) => (x[key] === null ? [] : [x[key]]))
const lowest = (xs: number[]) => (xs.length === 0 ? undefined : Math.min(...xs))
const summary = {
  fixtures: rows.length,
  failed: rows.filter((r) => r.error !== undefined).length,
  skipped: skipped.length,
  'median ratio (fixtures)': fixed(median(ratios(perFixture, 'ratio')), 2),
  'median ratio (families)': fixed(median(ratios(families, 'ratio')), 2),
  'lowest family ratio': fixed(lowest(ratios(families, 'ratio')), 2),
  'median CPU ratio (fixtures)': fixed(median(ratios(perFixture, 'CPU ratio')), 2),
  'median CPU ratio (families)': fixed(median(ratios(families, 'CPU ratio')), 2),
  'lowest family CPU ratio': fixed(lowest(ratios(families, 'CPU ratio')), 2),
}
log(`${JSON.stringify(summary)}`)
for (const s of skipped) log(`skipped ${s.fixture}: ${s.why}`)
const out = join(REPO_ROOT, 'bench', 'results')
mkdirSync(out, { recursive: true })
writeFileSync(
  join(out, 'eest.json'),
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, gas: gasPick, warm: warmUps, summary, families, perFixture, rows, skipped }, null, 2)}\n`,
)
log(`wrote ${join(out, 'eest.json')}`)
process.exit(0)
