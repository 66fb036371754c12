import { describe, expect, it } from 'vitest'
import { ChainStore } from '../store/chainStore.js'
import { numberKey } from '../store/layout.js'
import { tempDatadir } from '../testing/paths.js'
import { type LogEntry, blockIndexKeys, encodeBlockLogs } from '../store/blockLogs.js'
import { queryLogs, scanLogs } from './logQuery.js'

// The query over the log index, on a store written by hand: canonical and side blocks, budgets, limits.

const RARE = new Uint8Array(20).fill(0xe4)
const NOISY = new Uint8Array(20).fill(0xa0)
const TOPIC = new Uint8Array(32).fill(0x5e)

function hashOf(n: number, side = false): Uint8Array {
  const h = new Uint8Array(32)
  h[0] = side ? 1 : 0
  h[31] = n
  return h
}

function put(store: ChainStore, n: number, logs: LogEntry[], side = false): void {
  const hash = hashOf(n, side)
  store.db('blockLogs').putSync(hash, encodeBlockLogs(logs))
  for (const k of blockIndexKeys(logs, BigInt(n), hash)) store.db('logIndex').putSync(k, new Uint8Array([1]))
  if (!side) store.db('canonical').putSync(numberKey(n), hash)
}

const entry = (address: Uint8Array, n: number): LogEntry => ({
  address,
  topics: [TOPIC],
  json: new TextEncoder().encode(`{"n":${n},"removed":false}`),
})
const text = (r: ReturnType<typeof queryLogs>) => ('json' in r ? JSON.parse(Buffer.from(r.json).toString()) : r) as unknown

function store(): ChainStore {
  const s = new ChainStore(tempDatadir('logs'))
  for (let n = 1; n <= 40; n++) put(s, n, [entry(n % 10 === 0 ? RARE : NOISY, n)])
  // A side block at 20 logs the rare address too: it is indexed, but not canonical.
  put(s, 20, [entry(RARE, 2000)], true)
  return s
}

/** Limits of `n` logs and no byte bound. */
const max = (maxResults: number) => ({ maxResults, maxBytes: Number.POSITIVE_INFINITY })

describe('queryLogs', () => {
  it('answers from the index for an address, from every block without criteria, canonical blocks only', () => {
    const s = store()
    expect(text(queryLogs(s, { from: 1n, to: 40n }, { addresses: [RARE], topics: [] }, max(100)))).toEqual(
      [10, 20, 30, 40].map((n) => ({ n, removed: false })),
    )
    expect((text(queryLogs(s, { from: 5n, to: 14n }, { addresses: [], topics: [] }, max(100))) as unknown[]).length).toBe(10)
    expect(text(queryLogs(s, { blockHashes: [hashOf(20, true)] }, { addresses: [], topics: [] }, max(100), true))).toEqual([
      { n: 2000, removed: true },
    ])
  })

  it('stops a slice at the end of the block that reaches its budget (blocks visited, logs looked at), naming where to go on', () => {
    const s = store()
    const all = { addresses: [], topics: [[TOPIC]] }
    const none = { addresses: [], topics: [] }
    // From the index: ten keys read, the range goes on at 11.
    expect(scanLogs(s, { from: 1n, to: 40n }, all, max(100), false, { blocks: 10, logs: 100 })).toMatchObject({ count: 10, visited: 10, next: 11n })
    // Every block: the fifth log ends the slice.
    expect(scanLogs(s, { from: 1n, to: 40n }, none, max(100), false, { blocks: 100, logs: 5 })).toMatchObject({ count: 5, next: 6n })
    // Within the budget: done, no next.
    expect(scanLogs(s, { from: 1n, to: 40n }, { addresses: [RARE], topics: [] }, max(100), false, { blocks: 10, logs: 10 })).toMatchObject({
      count: 4,
      next: undefined,
    })
    // The index lookup stops between two block numbers, never inside one: the side block at 20 is read with 20.
    expect(scanLogs(s, { from: 11n, to: 40n }, all, max(100), false, { blocks: 10, logs: 100 })).toMatchObject({ count: 10, next: 21n })
    expect(queryLogs(s, { from: 1n, to: 40n }, all, max(39))).toEqual({ overLimit: true })
  })

  it('gives the whole answer over its slices, in order, each log once', () => {
    const s = store()
    for (const criteria of [
      { addresses: [], topics: [[TOPIC]] },
      { addresses: [], topics: [] },
    ]) {
      const seen: number[] = []
      let from: bigint | undefined = 1n
      for (let guard = 0; from !== undefined && guard < 100; guard++) {
        const r = scanLogs(s, { from, to: 40n }, criteria, max(100), false, { blocks: 7, logs: 100 })
        if (!('json' in r)) throw new Error('slice refused')
        if (r.count > 0) seen.push(...(JSON.parse(`[${Buffer.from(r.json).toString()}]`) as { n: number }[]).map((l) => l.n))
        from = r.next
      }
      expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    }
  })

  it('stops building a reply that passes maxBytes, and answers one that fits', () => {
    const s = store()
    const rare = { addresses: [RARE], topics: [] }
    // Four logs of 24 bytes, three commas and the brackets: 101 bytes.
    const fits = queryLogs(s, { from: 1n, to: 40n }, rare, { maxResults: 100, maxBytes: 101 })
    expect('json' in fits && fits.json.length).toBe(101)
    expect(queryLogs(s, { from: 1n, to: 40n }, rare, { maxResults: 100, maxBytes: 100 })).toEqual({ tooLarge: true })
  })
})
