import { ALL_FORKS, type Fork } from '../chain/evmFork.js'
import { type FuzzCase, generateCase, smaller } from './evmCases.js'
import { runEthereumjs } from './evmEthereumjs.js'
import { knownDeviation } from './evmKnown.js'
import { differences, type TxOutcome } from './evmOutcome.js'
import { caseSeed } from './evmRandom.js'
import { runSponge } from './evmSponge.js'

// The EVM fuzzer's loop: case after case from one seed, each run by Sponge's EVM and by EthereumJS and compared
// transaction by transaction. A case where EthereumJS departs from the specs in a known way is counted as skipped,
// with the reason (evmKnown.ts); the first real disagreement is shrunk — transactions and program actions dropped
// while it persists — and returned.

export interface Disagreement {
  index: number
  case: FuzzCase
  /** The transaction that first differs, and how. */
  tx: number
  what: string[]
  sponge: TxOutcome[]
  ethereumjs: TxOutcome[]
}

export interface FuzzReport {
  cases: number
  /** Transactions compared (rejections included). */
  txs: number
  /** Known EthereumJS deviations skipped, by reason. */
  skipped: Map<string, number>
  disagreement: Disagreement | undefined
}

export interface FuzzOptions {
  seed: number
  runs: number
  /** The forks the cases cycle through (default: every fork). */
  forks?: readonly Fork[]
  /** Run only case `only` of the seed's sequence. */
  only?: number
  onCase?: (index: number, report: FuzzReport) => void
}

type Verdict = { kind: 'agree' } | { kind: 'skip'; reason: string } | { kind: 'differ'; tx: number; what: string[] }

interface Run {
  verdict: Verdict
  sponge: TxOutcome[]
  ethereumjs: TxOutcome[]
}

async function runCase(c: FuzzCase): Promise<Run> {
  const { outcomes: sponge, addresses } = runSponge(c)
  const ethereumjs = await runEthereumjs(c, addresses)
  for (let i = 0; i < c.txs.length; i++) {
    const what = differences(sponge[i]!, ethereumjs[i]!)
    if (what.length === 0) continue
    const reason = knownDeviation(c, i, sponge[i]!, ethereumjs[i]!)
    return { verdict: reason === undefined ? { kind: 'differ', tx: i, what } : { kind: 'skip', reason }, sponge, ethereumjs }
  }
  return { verdict: { kind: 'agree' }, sponge, ethereumjs }
}

/** A smaller case that still disagrees, found by dropping what can be dropped one at a time (at most `budget` runs). */
async function shrink(c: FuzzCase, budget = 400): Promise<{ case: FuzzCase; run: Run }> {
  let best = c
  let run = await runCase(c)
  let tries = 0
  for (let progress = true; progress && tries < budget; ) {
    progress = false
    for (const candidate of smaller(best)) {
      if (++tries > budget) break
      const r = await runCase(candidate)
      if (r.verdict.kind === 'differ') {
        best = candidate
        run = r
        progress = true
        break
      }
    }
  }
  return { case: best, run }
}

export async function fuzzEvm(o: FuzzOptions): Promise<FuzzReport> {
  const forks = o.forks ?? ALL_FORKS
  const report: FuzzReport = { cases: 0, txs: 0, skipped: new Map(), disagreement: undefined }
  const indices = o.only === undefined ? Array.from({ length: o.runs }, (_, i) => i) : [o.only]
  for (const index of indices) {
    const c = generateCase(caseSeed(o.seed, index), forks[index % forks.length]!)
    const run = await runCase(c)
    report.cases++
    report.txs += c.txs.length
    if (run.verdict.kind === 'skip') report.skipped.set(run.verdict.reason, (report.skipped.get(run.verdict.reason) ?? 0) + 1)
    if (run.verdict.kind === 'differ') {
      const shrunk = await shrink(c)
      const v = shrunk.run.verdict
      report.disagreement = {
        index,
        case: shrunk.case,
        tx: v.kind === 'differ' ? v.tx : 0,
        what: v.kind === 'differ' ? v.what : [],
        sponge: shrunk.run.sponge,
        ethereumjs: shrunk.run.ethereumjs,
      }
      o.onCase?.(index, report)
      return report
    }
    o.onCase?.(index, report)
  }
  return report
}
