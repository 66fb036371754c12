import { rmSync } from 'node:fs'
import { open } from 'lmdb'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDatadir } from '../testing/paths.js'
import { FLAT_WINDOW, type FlatDbs, PRUNE_EVERY, recordFlatChanges, seedFlatState } from './flatState.js'
import { ChangeWriter } from './stateChanges.js'

// The change lists below the flat window are removed as blocks are stored, a batch every PRUNE_EVERY numbers: the
// lists kept stay bounded however long the chain grows, and none inside the window is removed.

const dir = tempDatadir('flat-prune')
const root = open({ path: dir, noSync: true })
const db = (name: string) => root.openDB<Uint8Array, Uint8Array>({ name, encoding: 'binary', keyEncoding: 'binary' })
const dbs: FlatDbs = {
  meta: db('meta'),
  headers: db('headers'),
  flatAccounts: db('flatAccounts'),
  flatStorage: db('flatStorage'),
  stateDiffs: db('stateDiffs'),
  stateUndo: db('stateUndo'),
}
afterAll(async () => {
  await root.close()
  rmSync(dir, { recursive: true, force: true })
})

const hashOf = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? n & 0xff : i === 1 ? n >> 8 : 0))
const numberOfKey = (k: Uint8Array) => Number(Buffer.from(k.subarray(0, 8)).readBigUInt64BE())

describe('flat change lists below the window', () => {
  it('are pruned in batches: bounded, and every block inside the window kept', () => {
    root.transactionSync(() => seedFlatState(dbs, { hash: hashOf(0), stateRoot: new Uint8Array(32) }, new ChangeWriter().finish()))
    const last = Number(FLAT_WINDOW + 3n * PRUNE_EVERY + 5n)
    for (let n = 1; n <= last; n++) {
      root.transactionSync(() => recordFlatChanges(dbs, { hash: hashOf(n), number: BigInt(n) }, new ChangeWriter().finish()))
      const kept = [...dbs.stateDiffs.getKeys()].map((k) => numberOfKey(k as Uint8Array))
      expect(kept.length).toBeLessThanOrEqual(Number(FLAT_WINDOW + PRUNE_EVERY))
      expect(kept[kept.length - 1]).toBe(n)
      // Every block the window covers is there.
      expect(kept.filter((k) => k > n - Number(FLAT_WINDOW)).length).toBe(Math.min(n, Number(FLAT_WINDOW)))
    }
    // The last prune, at the last multiple of PRUNE_EVERY, removed everything below its window.
    const lastPrune = Math.floor(last / Number(PRUNE_EVERY)) * Number(PRUNE_EVERY)
    expect(numberOfKey([...dbs.stateDiffs.getKeys()][0] as Uint8Array)).toBe(lastPrune - Number(FLAT_WINDOW))
  })
})
