import { describe, expect, it } from 'vitest'
import { FILTER_TIMEOUT_MS, FilterRegistry, MAX_FILTERS, MAX_FILTERS_PER_CLIENT, MAX_FILTERS_UNNAMED, MAX_PENDING_HASHES } from './filters.js'

describe('FilterRegistry', () => {
  it('forgets a filter idle for five minutes; each poll pushes its expiry back', () => {
    let now = 1_000
    const reg = new FilterRegistry(() => now)
    const polledFilter = { kind: 'pendingTxs' as const, hashes: [] }
    const idle = reg.install({ kind: 'pendingTxs', hashes: [] }) as string
    const polled = reg.install(polledFilter) as string
    now += FILTER_TIMEOUT_MS - 1
    expect(reg.touch(polled)).toBe(polledFilter)
    now += 1
    expect(reg.touch(idle)).toBeUndefined()
    expect(reg.touch(polled)).toBe(polledFilter)
    expect(reg.uninstall(idle)).toBe(false)
    expect(reg.uninstall(polled)).toBe(true)
    expect(reg.size).toBe(0)
  })

  it('hands pending transactions to pending filters only, keeping the newest when a filter is not polled', () => {
    const reg = new FilterRegistry()
    const f = { kind: 'pendingTxs' as const, hashes: [] as string[] }
    reg.install(f)
    const blocks = { kind: 'blocks' as const, last: { hash: new Uint8Array(32), number: 0n } }
    reg.install(blocks)
    for (let i = 0; i <= MAX_PENDING_HASHES; i++) reg.pendingTransaction(`0x${i}`)
    expect(f.hashes).toHaveLength(MAX_PENDING_HASHES)
    expect(f.hashes[0]).toBe('0x1')
  })

  it('gives each client its share, the clients without a key one share together, and bounds them all', () => {
    let now = 1_000
    const reg = new FilterRegistry(() => now)
    const blocks = () => ({ kind: 'blocks' as const, last: { hash: new Uint8Array(32), number: 0n } })
    const connection = {}
    const otherConnection = {}
    for (let i = 0; i < MAX_FILTERS_PER_CLIENT; i++) expect(reg.install(blocks(), 'a', connection)).toEqual(expect.any(String))
    // The share is the client's, whichever connection asks.
    expect(reg.install(blocks(), 'a', otherConnection)).toEqual({ refused: 'client', limit: MAX_FILTERS_PER_CLIENT })
    expect(reg.install(blocks(), 'a')).toEqual({ refused: 'client', limit: MAX_FILTERS_PER_CLIENT })
    expect(reg.install(blocks(), 'b')).toEqual(expect.any(String))
    for (let i = 0; i < MAX_FILTERS_UNNAMED; i++) expect(reg.install(blocks())).toEqual(expect.any(String))
    expect(reg.install(blocks())).toEqual({ refused: 'client', limit: MAX_FILTERS_UNNAMED })
    // Enough clients fill every slot; then even a client with room in its share is refused.
    for (let c = 0; reg.size < MAX_FILTERS; c++) while (reg.size < MAX_FILTERS && typeof reg.install(blocks(), `c${c}`) === 'string');
    expect(reg.install(blocks(), 'fresh')).toEqual({ refused: 'all', limit: MAX_FILTERS })
    // A connection's filters leave their client's share when it closes (another connection's stay), and when they
    // expire.
    reg.dropConnection(otherConnection)
    expect(reg.heldBy('a')).toBe(MAX_FILTERS_PER_CLIENT)
    reg.dropConnection(connection)
    expect(reg.heldBy('a')).toBe(0)
    expect(reg.install(blocks(), 'a')).toEqual(expect.any(String))
    now += FILTER_TIMEOUT_MS
    expect(reg.install(blocks())).toEqual(expect.any(String))
    expect(reg.heldBy(undefined)).toBe(1)
    expect(reg.size).toBe(1)
  })
})
