// bench:compare's arithmetic, apart from the runs: the order of each round, what counts as throughput, the ratios and
// the noise floor a report states.

/** A build's place in a round: B against A, and A again (the control: the same build as A, run as a third side). */
export type Side = 'A' | 'B' | 'control'

// Each side at each position once in every block of three rounds (a Latin square): run in a fixed order, the later
// runs of a round measured 10-30% lower whatever the build was, more than most changes being measured.
const BLOCK: readonly (readonly Side[])[] = [
  ['A', 'B', 'control'],
  ['B', 'control', 'A'],
  ['control', 'A', 'B'],
]
export const BLOCK_ROUNDS = BLOCK.length

/** The order the three sides run in, in round `round` (from 0). */
export function roundOrder(round: number): Side[] {
  return [...BLOCK[round % BLOCK_ROUNDS]!]
}

/** Rounds asked for, raised to whole blocks (a part block would leave a position's bias in the ratios); one block if unreadable. */
export function wholeBlocks(rounds: number): number {
  return Number.isFinite(rounds) ? Math.max(1, Math.ceil(rounds / BLOCK_ROUNDS)) * BLOCK_ROUNDS : BLOCK_ROUNDS
}

/** One workload's figures in one run: calls answered with a result, and those refused, per second. */
export interface Measured {
  answeredPerSec: number
  refusedPerSec: number
}

/** What wrk's counting script saw in a run (wrk.ts): a run without the counts is no measure of goodput. */
export interface CountedRun {
  /** JSON-RPC results in replies of HTTP 200, per second. */
  resultsPerSec?: number | undefined
  /** JSON-RPC error replies of any code (-32005 refusals too), per second. */
  errorRepliesPerSec?: number | undefined
  /** Requests answered with a non-2xx status or lost at the socket, in the whole run. */
  errors: number
}

/**
 * Only calls answered with a result are throughput: a refusal (-32005 or any error reply) or an HTTP 503 comes back
 * fastest of all and, counted as a request, made a build that refused everything look 14 times faster.
 */
export function measured(run: CountedRun, seconds: number): Measured {
  if (run.resultsPerSec === undefined) throw new Error('a run without counted replies (wrk without its counting script)')
  return { answeredPerSec: run.resultsPerSec, refusedPerSec: (run.errorRepliesPerSec ?? 0) + run.errors / seconds }
}

/** Each round's runs, by side, each a workload's figures. */
export type Round = Record<Side, Record<string, Measured>>

export interface WorkloadSummary {
  workload: string
  /** B/A of answered calls: the geometric mean over whole blocks of rounds (positions balanced); undefined when A answered none. */
  ratio: number | undefined
  /** The lowest and highest B/A of a single round. */
  ratioMin: number | undefined
  ratioMax: number | undefined
  /** control/A, measured the same way: what a build against itself comes out as. */
  control: number | undefined
  /**
   * The noise floor as a factor above 1: a ratio within [1/noise, noise] is no measured difference. The larger of
   * the control's own deviation from 1 and two standard errors of its mean (the spread of its rounds' log ratios
   * over the square root of their number): one A-against-A mean alone is a single draw of the noise, and on a busy
   * machine it landed within 5% of 1 while single rounds of the same build scattered from 0.44 to 1.90.
   */
  noise: number | undefined
  withinNoise: boolean
  /** Medians over the rounds, per second. */
  answered: { A: number; B: number }
  refused: { A: number; B: number }
}

const median = (v: number[]): number => {
  const s = [...v].sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : s[Math.floor(s.length / 2)]!
}
const geomean = (v: number[]): number => Math.exp(v.reduce((s, x) => s + Math.log(x), 0) / v.length)

/** Per round, `side`'s answered calls over A's (0 when it answered none); undefined where A answered none. */
function ratios(rounds: Round[], workload: string, side: 'B' | 'control'): (number | undefined)[] {
  return rounds.map((r) => {
    const a = r.A[workload]?.answeredPerSec ?? 0
    const x = r[side][workload]?.answeredPerSec ?? 0
    return a > 0 ? x / a : undefined
  })
}

/** The geometric mean of each whole block's ratios; undefined if any of them is. */
function blockMeans(values: (number | undefined)[]): number[] | undefined {
  const blocks: number[] = []
  for (let i = 0; i + BLOCK_ROUNDS <= values.length; i += BLOCK_ROUNDS) {
    const block = values.slice(i, i + BLOCK_ROUNDS)
    if (block.some((v) => v === undefined)) return undefined
    blocks.push(geomean(block as number[]))
  }
  return blocks.length === 0 ? undefined : blocks
}

/** `WorkloadSummary.noise` from the control's per-round ratios over A (at least two, none undefined). */
export function noiseFloor(control: number[]): number {
  const logs = control.map(Math.log)
  const mean = logs.reduce((s, x) => s + x, 0) / logs.length
  const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (logs.length - 1))
  return Math.exp(Math.max(Math.abs(mean), (2 * sd) / Math.sqrt(logs.length)))
}

/** One workload's B/A, its control and whether the ratio lies within the control's noise. */
export function summarize(rounds: Round[], workload: string): WorkloadSummary {
  const b = ratios(rounds, workload, 'B')
  const c = ratios(rounds, workload, 'control')
  const bBlocks = blockMeans(b)
  const cBlocks = blockMeans(c)
  const defined = b.filter((v): v is number => v !== undefined)
  const ratio = bBlocks === undefined ? undefined : geomean(bBlocks)
  const noise = cBlocks === undefined ? undefined : noiseFloor(c as number[])
  const side = (s: Side, f: (m: Measured) => number) => median(rounds.map((r) => (r[s][workload] === undefined ? 0 : f(r[s][workload]!))))
  return {
    workload,
    ratio,
    ratioMin: defined.length === 0 ? undefined : Math.min(...defined),
    ratioMax: defined.length === 0 ? undefined : Math.max(...defined),
    control: cBlocks === undefined ? undefined : geomean(cBlocks),
    noise,
    withinNoise: ratio !== undefined && noise !== undefined && Math.abs(Math.log(ratio)) <= Math.log(noise),
    answered: { A: side('A', (m) => m.answeredPerSec), B: side('B', (m) => m.answeredPerSec) },
    refused: { A: side('A', (m) => m.refusedPerSec), B: side('B', (m) => m.refusedPerSec) },
  }
}

/** A summary's verdict in words, for the table. */
export function verdict(s: WorkloadSummary): string {
  if (s.ratio === undefined) return 'A answered nothing'
  if (s.noise === undefined) return 'no control'
  if (s.withinNoise) return 'within noise'
  return s.ratio > 1 ? 'B faster' : 'B slower'
}

/** What bench:compare reads of one bench:load run's JSON (load.ts, run with `--count`). */
export interface LoadResult {
  seconds: number
  rows: (CountedRun & { workload: string; connections: number })[]
  flood?: { connections: number; resultsPerSec: number; refusedPerSec: number; http503PerSec: number }[] | undefined
  evmReads?: (CountedRun & { workload: string; connections: number; server: string })[] | undefined
  stateReads?: (CountedRun & { workload: string; connections: number; server: string })[] | undefined
  logReads?: (CountedRun & { workload: string; connections: number; server: string })[] | undefined
  execution?: { sponge: { txPerSec: number } } | undefined
}

/** One run's workloads by name, each as answered and refused calls per second. */
export function workloadsOfRun(run: LoadResult): Record<string, Measured> {
  const out: Record<string, Measured> = {}
  for (const row of run.rows) out[`${row.workload} c=${row.connections}`] = measured(row, run.seconds)
  for (const row of run.flood ?? [])
    out[`flood c=${row.connections}`] = { answeredPerSec: row.resultsPerSec, refusedPerSec: row.refusedPerSec + row.http503PerSec }
  // Beside anvil: Sponge's own rows (anvil's are the same binary on every side).
  for (const row of [...(run.evmReads ?? []), ...(run.stateReads ?? []), ...(run.logReads ?? [])]) {
    if (row.server === 'sponge') out[`${row.workload} c=${row.connections}`] = measured(row, run.seconds)
  }
  // Every replayed block is checked VALID, or the run fails: nothing of it is refused.
  if (run.execution !== undefined) out['engine_newPayloadV4 replay (tx/s)'] = { answeredPerSec: run.execution.sponge.txPerSec, refusedPerSec: 0 }
  return out
}
