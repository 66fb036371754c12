import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseFlags } from '../cli/args.js'
import { REPO_ROOT } from '../testing/paths.js'
import type { BesideAnvilRow } from './anvil.js'
import type { FloodRow } from './flood.js'
import type { LoadRow } from './report.js'

// `npm run bench:compare -- <git-ref-A> <git-ref-B> [--rounds 3] [--duration 3] [--connections 64] [--only re]`:
// builds both refs in temporary worktrees and runs this checkout's load driver against each build's node in
// alternation (A B A B …). Prints, per workload, the ratio B/A of req/s (min, median, max over rounds) — ratios,
// not absolute numbers, are the answer on a shared machine — and writes bench/results/compare.{json,html}.

const args = parseFlags(process.argv.slice(2), { rounds: 'string', duration: 'string', connections: 'string', only: 'string' })
const [refA, refB] = args.positional
if (refA === undefined || refB === undefined) {
  process.stderr.write('usage: npm run bench:compare -- <git-ref-A> <git-ref-B> [--rounds 3] [--duration 3]\n')
  process.exit(2)
}
const rounds = Number(args.flags.get('rounds') ?? 3)
const duration = args.flags.get('duration') ?? '3'
const connections = args.flags.get('connections') ?? '64'
const only = args.flags.get('only') ?? 'chainId|Receipt|ByBlockNumberAndIndex|config|batch|replay'
const log = (l: string) => process.stderr.write(`${l}\n`)

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
const runs: Record<'A' | 'B', Record<string, number>[]> = { A: [], B: [] }
try {
  const clis = { A: build(refA, 'A'), B: build(refB, 'B') }
  for (let r = 0; r < rounds; r++) {
    for (const side of ['A', 'B'] as const) {
      const out = join(work, `${side}-${r}.json`)
      log(`round ${r + 1}/${rounds}: ${side} (${side === 'A' ? refA : refB})`)
      const p = spawnSync(
        process.execPath,
        [load, '--cli', clis[side], '--out', out, '--duration', duration, '--connections', connections, '--only', only, '--txs', '1000'],
        { stdio: ['ignore', 'inherit', 'inherit'] },
      )
      if (p.status !== 0) throw new Error(`load run failed for ${side}`)
      const rows = JSON.parse(readFileSync(out, 'utf8')) as {
        rows: LoadRow[]
        flood?: FloodRow[]
        evmReads?: BesideAnvilRow[]
        stateReads?: BesideAnvilRow[]
        logReads?: BesideAnvilRow[]
        execution?: { sponge: { txPerSec: number } }
      }
      const byName: Record<string, number> = {}
      for (const row of rows.rows) byName[`${row.workload} c=${row.connections}`] = row.requestsPerSec
      for (const row of rows.flood ?? []) byName[`flood (calls/s served) c=${row.connections}`] = row.resultsPerSec
      // Beside anvil: Sponge's own rows (anvil's are the same binary on both sides).
      for (const row of [...(rows.evmReads ?? []), ...(rows.stateReads ?? []), ...(rows.logReads ?? [])]) {
        if (row.server === 'sponge') byName[`${row.workload} c=${row.connections}`] = row.requestsPerSec
      }
      if (rows.execution !== undefined) byName['engine_newPayloadV4 replay (tx/s)'] = rows.execution.sponge.txPerSec
      runs[side].push(byName)
    }
  }
} finally {
  for (const label of ['A', 'B']) spawnSync('git', ['-C', REPO_ROOT, 'worktree', 'remove', '--force', join(work, label)])
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!
const table = Object.keys(runs.A[0] ?? {}).map((w) => {
  const ratios = runs.A.map((a, i) => (runs.B[i]![w] ?? 0) / (a[w] ?? 1))
  return {
    workload: w,
    'B/A min': ratios.reduce((a, b) => Math.min(a, b)).toFixed(3),
    'B/A median': median(ratios).toFixed(3),
    'B/A max': ratios.reduce((a, b) => Math.max(a, b)).toFixed(3),
  }
})
console.log(`B/A = ${refB} / ${refA}, ${rounds} alternating rounds`)
console.table(table)
const outDir = join(REPO_ROOT, 'bench', 'results')
mkdirSync(outDir, { recursive: true })
writeFileSync(join(outDir, 'compare.json'), `${JSON.stringify({ refA, refB, rounds, runs, table }, null, 2)}\n`)
const bars = table
  .map((t, i) => {
    const m = Number(t['B/A median'])
    const w = Math.min(400, m * 200)
    return `<text x="4" y="${30 + i * 22}">${t.workload}</text><rect x="300" y="${18 + i * 22}" width="${w}" height="14" fill="${m >= 1 ? '#2ca02c' : '#d62728'}"/><text x="${305 + w}" y="${30 + i * 22}">${t['B/A median']} (${t['B/A min']}–${t['B/A max']})</text>`
  })
  .join('')
writeFileSync(
  join(outDir, 'compare.html'),
  `<!doctype html><html><head><meta charset="utf-8"><title>${refB} vs ${refA}</title></head><body style="font-family:sans-serif"><h1>B/A throughput: ${refB} / ${refA}</h1><p>${rounds} alternating rounds; bars at median, 1.0 = 200px.</p><svg width="900" height="${40 + table.length * 22}" font-size="12"><line x1="500" y1="10" x2="500" y2="${30 + table.length * 22}" stroke="#999"/>${bars}</svg></body></html>`,
)
log(`wrote ${join(outDir, 'compare.json')} and compare.html`)
rmSync(work, { recursive: true, force: true })
