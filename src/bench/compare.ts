import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseFlags } from '../cli/args.js'
import { REPO_ROOT } from '../testing/paths.js'
import {
  type LoadResult,
  type Round,
  type Side,
  type WorkloadSummary,
  roundOrder,
  summarize,
  verdict,
  wholeBlocks,
  workloadsOfRun,
} from './compareStats.js'

// `npm run bench:compare -- <git-ref-A> <git-ref-B> [--rounds 3] [--duration 3] [--connections 64] [--only re]`:
// builds both refs in temporary worktrees and runs this checkout's load driver against each build's node, and against
// A's build a second time (the control), the three in a rotating order (compareStats.ts). Prints, per workload, B/A
// of the calls answered with a result per second, control/A (what the same build against itself comes out as: the
// report's noise floor) and whether B/A lies within it, and writes bench/results/compare.{json,html}.

const args = parseFlags(process.argv.slice(2), { rounds: 'string', duration: 'string', connections: 'string', only: 'string' })
const [refA, refB] = args.positional
if (refA === undefined || refB === undefined) {
  process.stderr.write('usage: npm run bench:compare -- <git-ref-A> <git-ref-B> [--rounds 3] [--duration 3]\n')
  process.exit(2)
}
const asked = Number(args.flags.get('rounds') ?? 3)
const rounds = wholeBlocks(asked)
const duration = args.flags.get('duration') ?? '3'
const connections = args.flags.get('connections') ?? '64'
// '^eth_chainId$': logReads' 'transport: eth_chainId' would bring its 2,000 blocks on two servers into every run.
const only = args.flags.get('only') ?? '^eth_chainId$|Receipt|ByBlockNumberAndIndex|config|batch|replay'
const log = (l: string) => process.stderr.write(`${l}\n`)
if (rounds !== asked) log(`--rounds ${asked}: running ${rounds}, whole blocks of 3 (each build at each position once a block)`)

const work = mkdtempSync(join(tmpdir(), 'sponge-compare-'))
function build(ref: string, label: string): string {
  const dir = join(work, label)
  execFileSync('git', ['-C', REPO_ROOT, 'worktree', 'add', '--detach', dir, ref], { stdio: 'inherit' })
  log(`building ${ref} in ${dir}…`)
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' })
  const cli = join(dir, 'dist', 'cli', 'main.js')
  if (!existsSync(cli)) throw new Error(`${ref}: no dist/cli/main.js after npm ci`)
  return cli
}

const load = fileURLToPath(new URL('./load.js', import.meta.url))
const runs: Round[] = []
const orders: Side[][] = []
try {
  const a = build(refA, 'A')
  const clis: Record<Side, string> = { A: a, B: build(refB, 'B'), control: a }
  const refOf: Record<Side, string> = { A: refA, B: refB, control: `${refA} (control)` }
  for (let r = 0; r < rounds; r++) {
    const order = roundOrder(r)
    orders.push(order)
    const round: Partial<Round> = {}
    for (const side of order) {
      const out = join(work, `${side}-${r}.json`)
      log(`round ${r + 1}/${rounds}: ${side} (${refOf[side]}), order ${order.join(' ')}`)
      const p = spawnSync(
        process.execPath,
        [load, '--cli', clis[side], '--out', out, '--count', '--duration', duration, '--connections', connections, '--only', only, '--txs', '1000'],
        { stdio: ['ignore', 'inherit', 'inherit'] },
      )
      if (p.status !== 0) throw new Error(`load run failed for ${side}`)
      round[side] = workloadsOfRun(JSON.parse(readFileSync(out, 'utf8')) as LoadResult)
    }
    runs.push(round as Round)
  }
} finally {
  for (const label of ['A', 'B']) spawnSync('git', ['-C', REPO_ROOT, 'worktree', 'remove', '--force', join(work, label)])
}

const summaries: WorkloadSummary[] = Object.keys(runs[0]?.A ?? {}).map((w) => summarize(runs, w))
const f3 = (v: number | undefined) => (v === undefined ? '-' : v.toFixed(3))
const pct = (noise: number | undefined) => (noise === undefined ? '-' : `±${((noise - 1) * 100).toFixed(1)}%`)
const table = summaries.map((s) => ({
  workload: s.workload,
  'B/A': f3(s.ratio),
  'B/A rounds min–max': `${f3(s.ratioMin)}–${f3(s.ratioMax)}`,
  'control/A': f3(s.control),
  noise: pct(s.noise),
  verdict: verdict(s),
  'answered/s A': Math.round(s.answered.A),
  'answered/s B': Math.round(s.answered.B),
  'refused/s A': Math.round(s.refused.A),
  'refused/s B': Math.round(s.refused.B),
}))
console.log(
  `B/A = ${refB} / ${refA}: calls answered with a result per second, geometric mean of ${rounds} rounds (orders ${orders.map((o) => o.join(' ')).join(', ')}); ` +
    `control = ${refA}'s build run again; noise = the larger of control/A's deviation from 1 and 2 standard errors of its rounds (B/A within 1/noise … noise is no measured difference); refused = error replies + HTTP errors, per second (medians)`,
)
console.table(table)
const outDir = join(REPO_ROOT, 'bench', 'results')
mkdirSync(outDir, { recursive: true })
writeFileSync(join(outDir, 'compare.json'), `${JSON.stringify({ refA, refB, rounds, orders, runs, summaries }, null, 2)}\n`)
// Bars at B/A, 1.0 = 200px; the grey band is the control's noise floor around 1.
const bars = summaries
  .map((s, i) => {
    const m = s.ratio ?? 0
    const w = Math.min(400, m * 200)
    const y = 18 + i * 22
    const band =
      s.noise === undefined ? '' : `<rect x="${300 + 200 / s.noise}" y="${y - 2}" width="${200 * s.noise - 200 / s.noise}" height="18" fill="#ccc"/>`
    const color = s.withinNoise ? '#7f7f7f' : m >= 1 ? '#2ca02c' : '#d62728'
    return `<text x="4" y="${y + 12}">${s.workload}</text>${band}<rect x="300" y="${y}" width="${w}" height="14" fill="${color}"/><text x="${305 + w}" y="${y + 12}">${f3(s.ratio)} (${f3(s.ratioMin)}–${f3(s.ratioMax)}) ${verdict(s)}, noise ${pct(s.noise)}</text>`
  })
  .join('')
writeFileSync(
  join(outDir, 'compare.html'),
  `<!doctype html><html><head><meta charset="utf-8"><title>${refB} vs ${refA}</title></head><body style="font-family:sans-serif"><h1>B/A answered calls/s: ${refB} / ${refA}</h1><p>${rounds} rounds, each build at each position once every 3; bars at the geometric mean, 1.0 = 200px; grey: the A-against-A control's noise floor (grey bars lie within it).</p><svg width="1000" height="${40 + summaries.length * 22}" font-size="12">${bars}<line x1="500" y1="10" x2="500" y2="${30 + summaries.length * 22}" stroke="#999"/></svg></body></html>`,
)
log(`wrote ${join(outDir, 'compare.json')} and compare.html`)
rmSync(work, { recursive: true, force: true })
