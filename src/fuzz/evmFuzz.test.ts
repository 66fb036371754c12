import { describe, expect, it } from 'vitest'
import { ALL_FORKS, Fork } from '../chain/evmFork.js'
import { codeOf, generateCase, smaller } from './evmCases.js'
import { fuzzEvm } from './evmFuzz.js'
import { caseSeed } from './evmRandom.js'
import { disagreementLines, summaryLine } from './evmReport.js'

// The differential EVM fuzzer, short: 200 generated cases (every fork in turn), Sponge's EVM against EthereumJS.
// `npm run fuzz:evm -- --runs N --seed S [--fork F]` runs longer.

describe('the differential EVM fuzzer', () => {
  it('finds Sponge and EthereumJS agreeing on 200 seeded cases, every fork from Frontier to Osaka', { timeout: 300_000 }, async () => {
    const report = await fuzzEvm({ seed: 20261126, runs: 200 })
    const d = report.disagreement
    expect(d === undefined ? [] : disagreementLines(d)).toEqual([])
    expect(report.cases).toBe(200)
    expect(summaryLine(report)).toMatch(/^200 cases, \d+ transactions compared/)
  })

  it('makes the same case from the same seed, and smaller ones from it', () => {
    const seed = caseSeed(7, 3)
    const a = generateCase(seed, Fork.byzantium)
    const b = generateCase(seed, Fork.byzantium)
    expect(a.accounts.map((x) => Buffer.from(codeOf(a, x)).toString('hex'))).toEqual(b.accounts.map((x) => Buffer.from(codeOf(b, x)).toString('hex')))
    for (const s of smaller(a)) {
      const actions = (c: typeof a) => c.accounts.reduce((n, x) => n + (x.program?.length ?? 0), 0) + c.txs.length
      expect(actions(s)).toBe(actions(a) - 1)
    }
    expect(ALL_FORKS.length).toBe(15)
  })
})
