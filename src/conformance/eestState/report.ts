import { caseId } from './fixture.js'
import type { CaseResult } from './runner.js'

// The runner's printout: failures grouped by folder (at most `show` lines each, then how many more), optionally a
// line per folder, the slowest cases, the totals per top folder, and last `N passed, M failed`.

export interface Tally {
  passed: number
  failed: number
}

const folderOf = (file: string): string => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.')
const topOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.')

function tallies(
  results: readonly CaseResult[],
  by: (file: string) => string,
  key: (r: CaseResult) => string = (r) => r.key.file,
): Map<string, Tally> {
  const out = new Map<string, Tally>()
  for (const r of results) {
    const k = by(key(r))
    const t = out.get(k) ?? { passed: 0, failed: 0 }
    if (r.reason === undefined) t.passed++
    else t.failed++
    out.set(k, t)
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

const order = (a: CaseResult, b: CaseResult): number => {
  const x = caseId(a.key)
  const y = caseId(b.key)
  return x < y ? -1 : x > y ? 1 : 0
}

/** The report's lines; the last is exactly `N passed, M failed`. */
export function reportLines(results: readonly CaseResult[], opts: { show: number; folders: boolean; forks?: boolean; slowest?: number }): string[] {
  const lines: string[] = []
  const byFolder = tallies(results, folderOf)
  const failures = results.filter((r) => r.reason !== undefined).sort(order)
  for (const [folder, t] of byFolder) {
    if (t.failed === 0) continue
    lines.push(`FAIL ${folder}: ${t.failed} of ${t.passed + t.failed} failed`)
    const mine = failures.filter((r) => folderOf(r.key.file) === folder)
    for (const r of mine.slice(0, opts.show)) lines.push(`  ${caseId(r.key).slice(folder.length + 1)}: ${r.reason}`)
    if (mine.length > opts.show) lines.push(`  … and ${mine.length - opts.show} more`)
  }
  if (opts.folders) {
    lines.push('per folder:')
    for (const [folder, t] of byFolder) lines.push(`  ${folder}: ${t.passed}/${t.passed + t.failed} passed`)
  }
  if (opts.forks === true) {
    lines.push('per fork:')
    for (const [fork, t] of tallies(
      results,
      (f) => f,
      (r) => r.key.fork,
    ))
      lines.push(`  ${fork}: ${t.passed}/${t.passed + t.failed} passed`)
  }
  if ((opts.slowest ?? 0) > 0) {
    lines.push('slowest:')
    for (const r of [...results].sort((a, b) => b.ms - a.ms).slice(0, opts.slowest)) lines.push(`  ${(r.ms / 1000).toFixed(1)} s ${caseId(r.key)}`)
  }
  for (const [top, t] of tallies(results, topOf)) lines.push(`${top}: ${t.passed} passed, ${t.failed} failed`)
  const passed = results.filter((r) => r.reason === undefined).length
  lines.push(`${passed} passed, ${results.length - passed} failed`)
  return lines
}
