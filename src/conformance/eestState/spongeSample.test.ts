import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { allCases, openFixtures, sampleCases } from './archive.js'
import { buildCase, type CaseKey, caseId, type FixtureFile, parseFixtureFile } from './fixture.js'
import { createExecutor } from './spongeExecutor.js'
import { judge } from './verdict.js'

// A seeded sample of the execution-spec-tests state tests through Sponge's EVM, in every `npm test`: the whole set is
// `npm run eest:state -- --evm sponge` (README). EEST_SEED picks another sample.

const SAMPLE = 400
const SEED = Number(process.env.EEST_SEED ?? 22)

describe('the EEST state tests through Sponge’s EVM', () => {
  it(`pass on a sample of ${SAMPLE} cases (seed ${SEED})`, { timeout: 180_000 }, async () => {
    const fixtures = openFixtures()
    const cases = sampleCases(allCases(fixtures.files), SAMPLE, SEED)
    const executor = createExecutor()
    const failures: string[] = []
    const byFile = new Map<string, CaseKey[]>()
    for (const c of cases) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c])
    for (const [file, keys] of byFile) {
      const parsed: FixtureFile = parseFixtureFile(readFileSync(join(fixtures.dir, file), 'utf8'))
      for (const key of keys) {
        const c = buildCase(parsed, key)
        const why = judge(c.expect, await executor.run(c.input))
        if (why !== undefined) failures.push(`${caseId(key)}: ${why}`)
      }
    }
    expect(failures).toEqual([])
    expect(cases.length).toBe(SAMPLE)
  })
})
