import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Bench } from 'tinybench'
import { parseFlags } from '../cli/args.js'
import { REPO_ROOT } from '../testing/paths.js'
import { type EvmCase, evmCases } from './evmCases.js'
import { type Engine, type EthereumjsState, differences, ethereumjsEngine, spongeEngine } from './evmEngines.js'

// `npm run bench:evm [-- --only <regexp> --time <ms> --rounds <n> --state simple|merkle --engines sponge,ethereumjs
// --against <another build's dist> --allow-mismatch]`: Sponge's interpreter alone beside EthereumJS's EVM, on the same code and state, warm. Each case
// (evmCases.ts) is first run twice on both and the outcomes compared — status, gas used, refund counter, output, logs,
// the storage it names — and any disagreement stops the bench (a bug in one of them) unless --allow-mismatch. Then
// tinybench times Sponge's `Evm.run` of the case's message and EthereumJS's `evm.runCall` of the same (each undone
// after: evmEngines.ts), `--rounds` times (default 3, `--time` 200 ms a task each, after a second of warm-up for
// Sponge), and reports each task's best round. EthereumJS runs on its SimpleStateManager (its default, and the faster
// of its two here) or with `--state merkle` on the trie-backed one with caches. `--engines sponge` times Sponge alone
// (for a CPU profile). `--against <dir>` times another build's Sponge (its dist/: its interpreter, its cases) beside
// this one's in the same process, each case's two tasks one after the other in every round, EthereumJS untimed: on
// the shared machine two builds run in turn, a process each, moved ±10–30% a family from run to run, both ways.
// Prints a table and writes bench/results/evm.json.

const args = parseFlags(process.argv.slice(2), {
  only: 'string',
  time: 'string',
  rounds: 'string',
  state: 'string',
  engines: 'string',
  against: 'string',
  'allow-mismatch': 'boolean',
})
const only = args.flags.get('only')
const time = Number(args.flags.get('time') ?? 200)
const roundCount = Number(args.flags.get('rounds') ?? 3)
const stateKind = (args.flags.get('state') ?? 'simple') as EthereumjsState
const againstDir = args.flags.get('against')
const engines = new Set((args.flags.get('engines') ?? (againstDir === undefined ? 'sponge,ethereumjs' : 'sponge')).split(','))
if (!Number.isFinite(time) || time <= 0) throw new Error(`--time: expected milliseconds, got ${args.flags.get('time')}`)
if (!Number.isInteger(roundCount) || roundCount < 1) throw new Error(`--rounds: expected a positive integer, got ${args.flags.get('rounds')}`)
for (const e of engines) if (e !== 'sponge' && e !== 'ethereumjs') throw new Error(`--engines: expected sponge and/or ethereumjs, got ${e}`)
if (stateKind !== 'merkle' && stateKind !== 'simple') throw new Error(`--state: expected merkle or simple, got ${stateKind}`)
const allowMismatch = args.flags.has('allow-mismatch')

const cases = evmCases().filter((c) => only === undefined || new RegExp(only).test(c.name))
if (cases.length === 0) throw new Error(`no case matches ${only}`)

/** The other build's engine for a case of the same name (its own cases module: its types, its data). */
async function againstEngines(dir: string): Promise<Map<string, Engine>> {
  const url = (file: string) => pathToFileURL(join(resolve(dir), file)).href
  const theirCases = (await import(url('bench/evmCases.js'))) as { evmCases: () => EvmCase[] }
  const theirEngines = (await import(url('bench/evmEngines.js'))) as { spongeEngine: (c: EvmCase) => Engine }
  return new Map(theirCases.evmCases().map((c) => [c.name, theirEngines.spongeEngine(c)]))
}
const against = againstDir === undefined ? undefined : await againstEngines(againstDir)

interface Prepared {
  c: EvmCase
  sponge: Engine
  ethereumjs: Engine
  /** The same case on the build of --against. */
  against: Engine | undefined
  gasUsed: number
  mismatch: string[]
}

const prepared: Prepared[] = []
for (const c of cases) {
  const sponge = spongeEngine(c)
  const ethereumjs = await ethereumjsEngine(c, stateKind)
  const other = against?.get(c.name)
  if (against !== undefined && other === undefined) throw new Error(`--against: no case "${c.name}" in ${againstDir}`)
  let mismatch: string[]
  let gasUsed = 0
  try {
    const [s, e] = [await sponge.check(), await ethereumjs.check()]
    mismatch = differences(s, e)
    if (c.expectedOutput !== undefined && BigInt(e.output) !== c.expectedOutput)
      mismatch.push(`EthereumJS's output ${e.output} is not the expected ${c.expectedOutput}`)
    if (e.status !== 'success') mismatch.push(`EthereumJS's run ended with ${e.status}`)
    gasUsed = e.gasUsed
    // A second run must repeat the first: the undo after each run leaves the state as it was.
    const [s2, e2] = [await sponge.check(), await ethereumjs.check()]
    for (const d of differences(s, s2)) mismatch.push(`Sponge's second run differs: ${d}`)
    for (const d of differences(e, e2)) mismatch.push(`EthereumJS's second run differs: ${d}`)
    if (other !== undefined) for (const d of differences(s, await other.check())) mismatch.push(`the --against build differs: ${d}`)
  } catch (err) {
    mismatch = [`threw: ${(err as Error).stack ?? String(err)}`]
  }
  if (mismatch.length > 0) {
    process.stderr.write(`\nDISAGREEMENT in "${c.name}" (Sponge ≠ EthereumJS):\n${mismatch.map((m) => `  ${m}`).join('\n')}\n`)
  }
  prepared.push({ c, sponge, ethereumjs, against: other, gasUsed, mismatch })
}
const failed = prepared.filter((p) => p.mismatch.length > 0)
if (failed.length > 0 && !allowMismatch) {
  process.stderr.write(
    `\n${failed.length} case(s) disagree: ${failed.map((p) => p.c.name).join(', ')}. Nothing timed (--allow-mismatch times them anyway).\n`,
  )
  process.exit(1)
}

// V8 optimizes Sponge's loop (one large function) only after some hundreds of milliseconds of runs here: measured
// before that, the first case timed ran at a seventh of its rate. So Sponge runs every case in turn for a second first.
if (engines.has('sponge')) {
  const until = performance.now() + 1000
  while (performance.now() < until) for (const p of prepared) p.sponge.run()
  const until2 = performance.now() + (against === undefined ? 0 : 1000)
  while (performance.now() < until2) for (const p of prepared) p.against!.run()
}

const rounds: Record<string, number>[] = []
for (let r = 0; r < roundCount; r++) {
  const bench = new Bench({ time, warmup: r === 0, warmupTime: 100, iterations: 16, warmupIterations: 8 })
  for (const p of prepared) {
    if (engines.has('sponge'))
      bench.add(`${p.c.name} / Sponge`, () => {
        p.sponge.run()
      })
    if (p.against !== undefined) {
      const other = p.against
      bench.add(`${p.c.name} / against`, () => {
        other.run()
      })
    }
    if (engines.has('ethereumjs'))
      bench.add(`${p.c.name} / EthereumJS`, async () => {
        await p.ethereumjs.run()
      })
  }
  await bench.run()
  rounds.push(
    Object.fromEntries(bench.tasks.map((t) => [t.name, (t.result as { throughput?: { mean: number } } | undefined)?.throughput?.mean ?? 0])),
  )
}

/** A task's best round: a neighbour on the shared machine only ever slows a round down. */
const best = (name: string): number => Math.max(0, ...rounds.map((r) => r[name] ?? 0))
const rows = prepared.map((p) => {
  const sponge = best(`${p.c.name} / Sponge`)
  const ethereumjs = best(`${p.c.name} / EthereumJS`)
  return {
    case: p.c.name,
    gas: p.gasUsed,
    'Sponge ops/s': engines.has('sponge') ? Math.round(sponge) : '-',
    'EthereumJS ops/s': engines.has('ethereumjs') ? Math.round(ethereumjs) : '-',
    ratio: sponge > 0 && ethereumjs > 0 ? Number((sponge / ethereumjs).toFixed(2)) : '-',
    'Sponge Mgas/s': engines.has('sponge') ? Number(((sponge * p.gasUsed) / 1e6).toFixed(1)) : '-',
    ...(p.against === undefined ? {} : againstColumns(sponge, best(`${p.c.name} / against`), p.c.name)),
    ...(p.mismatch.length > 0 ? { agree: 'NO' } : {}),
  }
})
/** This build against --against's: each task's best round, and the ratio of the two in each round (the spread). */
function againstColumns(sponge: number, other: number, name: string): Record<string, number | string> {
  const each = rounds.map((r) => (r[`${name} / Sponge`] ?? 0) / (r[`${name} / against`] || 1)).sort((a, b) => a - b)
  return {
    'against ops/s': Math.round(other),
    'this / against': other > 0 ? Number((sponge / other).toFixed(3)) : '-',
    'rounds: min–max': `${each[0]!.toFixed(3)}–${each[each.length - 1]!.toFixed(3)}`,
  }
}
console.table(rows)
console.log(`EthereumJS's state manager: ${stateKind}; ${time} ms a task, the best of ${roundCount} round(s); ratio = Sponge / EthereumJS`)
const out = join(REPO_ROOT, 'bench', 'results')
mkdirSync(out, { recursive: true })
const descriptions = Object.fromEntries(prepared.map((p) => [p.c.name, p.c.description]))
writeFileSync(
  join(out, 'evm.json'),
  `${JSON.stringify({ node: process.version, date: new Date().toISOString(), time, ethereumjsState: stateKind, descriptions, rows, rounds }, null, 2)}\n`,
)
console.log(`wrote ${join(out, 'evm.json')}`)
if (failed.length > 0) process.exit(1)
