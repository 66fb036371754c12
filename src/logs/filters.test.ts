import { describe, expect, it } from 'vitest'
import { FILTER_TIMEOUT_MS, FilterRegistry, MAX_PENDING_HASHES } from './filters.js'

describe('FilterRegistry', () => {
  it('forgets a filter idle for five minutes; each poll pushes its expiry back', () => {
    let now = 1_000
    const reg = new FilterRegistry(() => now)
    const polledFilter = { kind: 'pendingTxs' as const, hashes: [] }
    const idle = reg.install({ kind: 'pendingTxs', hashes: [] })!
    const polled = reg.install(polledFilter)!
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
})
