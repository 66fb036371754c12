import { describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { BUILT_CLI, tempDatadir } from '../testing/paths.js'
import { mountSmallFs, smallFsUnavailable } from '../testing/smallFs.js'
import { diskFullTrial, streamTrial, twoWritersTrial, walletTrial } from './trials.js'

// A few SIGKILLs while transactions stream in and dev mode makes blocks: after each restart every receipt read
// before the kill is identical and the chain links from head to genesis. Then one seeded trial each of issue 21's
// cases: a second writer on the datadir, a full disk, and issue 31's dev-wallet bursts from one account. `npm run crash` runs 20+ trials of each, imports too.

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
    // Six node starts (each with its serving threads) and three kills: a minute on a loaded machine is not enough.
  }, 180_000)
})

describe('a second writer', () => {
  it('is refused while the first node lives, and nothing acknowledged is lost when the first is killed', async () => {
    const spec = new ChainSpec(devGenesis())
    const seen = new Map<string, string>()
    const r = await twoWritersTrial({ spec, datadir: tempDatadir('two-writers'), cli: BUILT_CLI, seen, random: seeded(7), from: 3 })
    expect(r.refusals).toBeGreaterThanOrEqual(1)
    expect(r.receiptsChecked).toBe(seen.size)
    expect(r.head).toBeGreaterThanOrEqual(seen.size)
  }, 180_000)
})

describe('dev-wallet bursts from one account', () => {
  it('all acknowledged, each with its own nonce, and all there after a SIGKILL with a burst in flight', async () => {
    const r = await walletTrial({ datadir: tempDatadir('wallet'), cli: BUILT_CLI, random: seeded(5), from: 5 })
    // Sends fired together share blocks: the head says little of their count.
    expect(r.acknowledged).toBeGreaterThanOrEqual(5)
    expect(r.receiptsChecked).toBe(r.acknowledged)
  }, 180_000)
})

const noSmallFs = smallFsUnavailable()

describe.skipIf(noSmallFs !== undefined)(`a full disk${noSmallFs === undefined ? '' : ` (skipped: ${noSmallFs})`}`, () => {
  it('filled at a random send, then SIGKILL: every acknowledged transaction has its receipt after the restart', async () => {
    const fs = mountSmallFs(16 * 1024 * 1024)
    if (typeof fs === 'string') throw new Error(fs)
    try {
      const acknowledged = new Set<string>()
      const r = await diskFullTrial({ spec: new ChainSpec(devGenesis()), fs, cli: BUILT_CLI, acknowledged, random: seeded(11), from: 4 })
      expect(r.receiptsChecked).toBe(acknowledged.size)
      expect(r.head).toBeGreaterThanOrEqual(acknowledged.size)
    } finally {
      fs.unmount()
    }
  }, 180_000)
})
