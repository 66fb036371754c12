import { describe, expect, it } from 'vitest'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { genesisBlock } from '../state/genesis.js'
import { importChain } from '../import/importChain.js'
import { decodeChainFile } from '../chain/chainFile.js'
import { ChainStore } from '../store/chainStore.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { indexStoredLogs } from './backfill.js'
import { type LogCriteria, queryLogs } from './logQuery.js'

// A store written before the log index existed has receipts but no log records: its logs are indexed once, from
// the receipts, to exactly what indexing at execution would have written.

/** Limits of `n` logs and no byte bound. */
const max = (maxResults: number) => ({ maxResults, maxBytes: Number.POSITIVE_INFINITY })

describe('indexStoredLogs', () => {
  it('rebuilds the records and the index of an older store from its receipts, once', async () => {
    const spec = new ChainSpec(readGenesisFile(rpcCompatPath('genesis.json')))
    const store = new ChainStore(tempDatadir('backfill'))
    await genesisBlock(spec, store)
    await importChain(spec, store, decodeChainFile(spec, rpcCompatPath('chain.rlp')))
    expect(indexStoredLogs(store)).toBe(0)
    const all: LogCriteria = { addresses: [], topics: [] }
    const emitter = { addresses: [Buffer.from('7dcd17433742f4c0ca53122ab541d0ba67fc27df', 'hex')], topics: [] }
    // The chain's logs come to ~21 MB of JSON (block 2 logs large data): compared as bytes, not by a deep equal.
    const reply = (criteria: LogCriteria) => {
      const r = queryLogs(store, { from: 0n, to: 54n }, criteria, max(10_000))
      if (!('json' in r)) throw new Error('no reply')
      return { count: r.count, json: Buffer.from(r.json) }
    }
    const before = [reply(all), reply(emitter)]
    // What a store of the previous build looks like: no records, no keys, no mark.
    await store.db('blockLogs').clearAsync()
    await store.db('logIndex').clearAsync()
    await store.db('meta').remove(new TextEncoder().encode('logsIndexed'))
    expect(store.logsIndexed()).toBe(false)
    expect(queryLogs(store, { from: 0n, to: 54n }, all, max(10_000))).toMatchObject({ count: 0 })

    expect(indexStoredLogs(store)).toBe(55)
    expect(store.logsIndexed()).toBe(true)
    const after = [reply(all), reply(emitter)]
    expect(after.map((r) => r.count)).toEqual(before.map((r) => r.count))
    expect(after.every((r, i) => r.json.equals(before[i]!.json))).toBe(true)
    expect(before[0]!.count).toBeGreaterThan(100)
    expect(indexStoredLogs(store)).toBe(0)
  })
})
