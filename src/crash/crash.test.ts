import { describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { BUILT_CLI, tempDatadir } from '../testing/paths.js'
import { streamTrial } from './trials.js'

// A few SIGKILLs while transactions stream in and dev mode makes blocks: after each restart every receipt read
// before the kill is identical and the chain links from head to genesis. `npm run crash` runs 20+ trials, imports too.

/** A small deterministic generator: the trials vary where the kill falls, the same way on every run. */
function seeded(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31
    return s / 2 ** 31
  }
}

describe('SIGKILL', () => {
  it('loses nothing that was reported stored, three kills in a row', async () => {
    const spec = new ChainSpec(devGenesis())
    const datadir = tempDatadir('kill')
    const seen = new Map<string, string>()
    const random = seeded(42)
    let last = { receiptsChecked: 0, head: 0 }
    for (let trial = 0; trial < 3; trial++) {
      last = await streamTrial({ spec, datadir, cli: BUILT_CLI, seen, random, from: 2 })
    }
    expect(last.receiptsChecked).toBe(seen.size)
    expect(seen.size).toBeGreaterThanOrEqual(6)
    expect(last.head).toBeGreaterThanOrEqual(seen.size)
  })
})
