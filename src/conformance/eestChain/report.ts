import type { SkipKind } from './convert.js'

export interface CaseResult {
  id: string
  folder: string
  network: string
  verdict: 'pass' | 'fail' | 'skip'
  skip?: SkipKind
  reason?: string
  /** Invalid blocks the conversion left out (their RLP describes no payload). */
  skippedBlocks?: number
  ms: number
}

interface Tally {
  passed: number
  failed: number
  skipped: Map<string, number>
  skippedBlocks: number
  ms: number
}

/** Lines of the summary: per folder passed/failed/skipped (by kind), the failures (at most `show` a folder), totals. */
export function reportLines(results: readonly CaseResult[], show: number): string[] {
  const tallies = new Map<string, Tally>()
  const tally = (key: string) => {
    let t = tallies.get(key)
    if (t === undefined) tallies.set(key, (t = { passed: 0, failed: 0, skipped: new Map(), skippedBlocks: 0, ms: 0 }))
    return t
  }
  for (const r of results) {
    for (const t of [tally(r.folder), tally('total')]) {
      if (r.verdict === 'pass') t.passed++
      else if (r.verdict === 'fail') t.failed++
      else t.skipped.set(r.skip ?? 'other', (t.skipped.get(r.skip ?? 'other') ?? 0) + 1)
      t.skippedBlocks += r.skippedBlocks ?? 0
      t.ms += r.ms
    }
  }
  const lines: string[] = []
  const describe = (key: string, t: Tally) => {
    const skipped = [...t.skipped.values()].reduce((a, b) => a + b, 0)
    const kinds = [...t.skipped.entries()].map(([k, n]) => `${k} ${n}`).join(', ')
    const ran = t.passed + t.failed
    const perCase = ran === 0 ? '' : `, ${Math.round(t.ms / ran)} ms a case`
    const blocks = t.skippedBlocks === 0 ? '' : `; ${t.skippedBlocks} invalid blocks not a payload, left out`
    return `${key}: ${t.passed} passed, ${t.failed} failed, ${skipped} skipped${kinds === '' ? '' : ` (${kinds})`}${blocks}${perCase}`
  }
  for (const [key, t] of [...tallies].filter(([k]) => k !== 'total').sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(describe(key, t))
    const failures = results.filter((r) => r.folder === key && r.verdict === 'fail')
    for (const f of failures.slice(0, show)) lines.push(`  FAIL ${f.id}: ${f.reason}`)
    if (failures.length > show) lines.push(`  … ${failures.length - show} more failures`)
  }
  const total = tallies.get('total')
  if (total !== undefined) lines.push(describe('total', total))
  return lines
}
