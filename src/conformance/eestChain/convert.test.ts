import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { conformancePath } from '../../testing/paths.js'
import type { EngineCase } from '../engineCase.js'
import { convertCase, forkSchedule } from './convert.js'
import type { FixtureCase } from './fixture.js'

// The conversion against the shipped cases: test/fixtures/conformance/eest-source holds the fixtures two of
// test/fixtures/conformance/eest's cases were converted from; converted again, each gives that case's steps.
const shipped = (id: string) => {
  const dir = conformancePath('eest')
  const name = readdirSync(dir).find((d) => {
    try {
      return (JSON.parse(readFileSync(join(dir, d, 'steps.json'), 'utf8')) as EngineCase).id === id
    } catch {
      return false
    }
  })
  if (name === undefined) throw new Error(`no shipped case ${id}`)
  return {
    steps: JSON.parse(readFileSync(join(dir, name, 'steps.json'), 'utf8')) as EngineCase,
    genesis: JSON.parse(readFileSync(join(dir, name, 'genesis.json'), 'utf8')) as unknown,
  }
}

describe('blockchain_test to Engine API steps', () => {
  for (const [source, file] of [
    ['eip6110_deposits.json', 'blockchain_tests/prague/eip6110_deposits/test_invalid_layout.json'],
    ['eip7594_peerdas.json', 'blockchain_tests/osaka/eip7594_peerdas/test_valid_max_blobs_per_tx.json'],
  ] as const) {
    it(`reproduces the shipped case of ${file}`, () => {
      const cases = JSON.parse(readFileSync(conformancePath('eest-source', source), 'utf8')) as Record<string, FixtureCase>
      const [name, fixture] = Object.entries(cases)[0]!
      const id = `${file}::${name}`
      const want = shipped(id)
      const got = convertCase(id, fixture)
      if (got.kind !== 'case') throw new Error(`skipped: ${got.why}`)
      expect(got.engineCase.steps).toEqual(want.steps.steps)
      expect(got.engineCase.genesisHash).toBe(want.steps.genesisHash)
      expect(got.engineCase.final.lastblockhash).toBe(want.steps.final.lastblockhash)
      expect(got.genesis).toEqual(want.genesis)
      // The shipped case keeps up to 10 accounts; the conversion keeps every one, the same values.
      for (const [address, account] of Object.entries(want.steps.final.accounts))
        expect(got.engineCase.final.accounts[address]).toMatchObject(account)
    })
  }

  it('schedules single-fork and transition networks, and none before Cancun', () => {
    expect(forkSchedule('Osaka')).toEqual({ shanghaiTime: 0, cancunTime: 0, pragueTime: 0, osakaTime: 0 })
    expect(forkSchedule('PragueToOsakaAtTime15k')).toEqual({ shanghaiTime: 0, cancunTime: 0, pragueTime: 0, osakaTime: 15_000 })
    expect(forkSchedule('Shanghai')).toBeUndefined()
    expect(forkSchedule('CancunToOsakaAtTime15k')).toBeUndefined()
  })
})
