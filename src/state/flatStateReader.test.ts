import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { ChainStore } from '../store/chainStore.js'
import { tempDatadir } from '../testing/paths.js'
import { syncRun } from '../util/syncRun.js'
import { genesisBlock } from './genesis.js'
import { FlatStateReader } from './flatStateReader.js'

// Head reads check, in the store, that the flat table holds the canonical head's state; a batch of them makes that
// check once per synchronous run (util/syncRun.ts). A write in the middle of the run must be seen by the next read.

const FUNDED = devAccounts()[0]!.address
const dir = tempDatadir('flat-reader')
let store: ChainStore
let genesisBalance: string

beforeAll(async () => {
  const spec = new ChainSpec(devGenesis())
  store = new ChainStore(dir)
  await genesisBlock(spec, store)
  genesisBalance = `0x${BigInt(spec.genesis.alloc[FUNDED]!.balance!).toString(16)}`
})
afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('head reads in one synchronous run', () => {
  it('answer from the flat table while it holds the head, and stop at once when a write in the run moves the head away', () => {
    const reader = new FlatStateReader(store)
    const unknownHead = new Uint8Array(32).fill(0xee)
    syncRun(() => {
      expect(reader.headAccount('balance', FUNDED)).toBe(genesisBalance)
      expect(reader.headAccount('nonce', FUNDED)).toBe('0x0')
      // The head moves to a block the table cannot follow (none stored): the table stays at genesis.
      store.setCanonicalSync(0n, [], 0n, { head: unknownHead })
      expect(reader.headAccount('balance', FUNDED)).toBeUndefined()
      expect(reader.headSlot(FUNDED, '0x0')).toBeUndefined()
    })
    expect(reader.headAccount('balance', FUNDED)).toBeUndefined()
  })
})
