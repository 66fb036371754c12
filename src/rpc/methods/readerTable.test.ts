import { describe, expect, it } from 'vitest'
import { allMethods } from './index.js'
import { readerMethods, readerSyncing } from './readerTable.js'

describe("a reader's method table", () => {
  it('serves no Engine API or testing_ method, forwards sends, and reads with the node’s handlers', () => {
    const base = allMethods()
    const table = readerMethods(base, { syncing: () => false })
    expect([...table.values()].filter((d) => d.namespace === 'engine' || d.namespace === 'testing')).toEqual([])
    for (const m of ['eth_sendRawTransaction', 'eth_sendTransaction', 'txpool_content', 'evm_mine']) expect(table.get(m)?.runsIn, m).toBe('thread')
    // Reads are the node's own handlers.
    expect(table.get('eth_getBalance')).toBe(base.get('eth_getBalance'))
  })

  it('eth_syncing: behind while the head taken in is below the stored one', () => {
    expect(readerSyncing(10n, 10n)).toBe(false)
    expect(readerSyncing(10n, 12n)).toBe(false)
    expect(readerSyncing(12n, 10n)).toEqual({ startingBlock: '0xa', currentBlock: '0xa', highestBlock: '0xc' })
  })
})
