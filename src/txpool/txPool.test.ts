import { describe, expect, it } from 'vitest'
import { type PooledTx, TxPool } from './txPool.js'

const tx = (sender: string, nonce: number, maxFee: number, tip = maxFee): PooledTx => ({
  hash: `${sender}-${nonce}-${maxFee}`,
  raw: new Uint8Array(),
  sender,
  nonce: BigInt(nonce),
  maxFee: BigInt(maxFee),
  maxPriorityFee: BigInt(tip),
  json: '{}',
})

const newPool = (maxSize = 100) => new TxPool({ maxSize, priceBumpPercent: 10 })

describe('transaction pool', () => {
  it('orders pending transactions by tip across senders and by nonce within one', () => {
    const p = newPool()
    p.add(tx('a', 0, 10), 0n)
    p.add(tx('a', 1, 50), 0n)
    p.add(tx('b', 0, 20), 0n)
    expect(p.pending(0n).map((t) => t.hash)).toEqual(['b-0-20', 'a-0-10', 'a-1-50'])
  })
  it('keeps transactions after a nonce gap queued', () => {
    const p = newPool()
    p.add(tx('a', 2, 10), 0n)
    expect(p.pending(0n)).toEqual([])
    p.add(tx('a', 0, 10), 0n)
    p.add(tx('a', 1, 10), 0n)
    expect(p.pending(0n).map((t) => t.nonce)).toEqual([0n, 1n, 2n])
    expect(p.nextNonce('a', 0n)).toBe(3n)
  })
  it('refuses duplicates, low nonces, underpriced replacements and a full pool', () => {
    const p = newPool(2)
    p.add(tx('a', 5, 100), 5n)
    expect(() => p.add(tx('a', 5, 100), 5n)).toThrow('already known')
    expect(() => p.add(tx('a', 4, 100), 5n)).toThrow(/nonce too low/)
    expect(() => p.add(tx('a', 5, 109), 5n)).toThrow('replacement transaction underpriced')
    p.add(tx('a', 5, 110), 5n)
    expect(p.size).toBe(1)
    p.add(tx('b', 0, 1), 0n)
    expect(() => p.add(tx('c', 0, 1), 0n)).toThrow('txpool is full')
  })
  it('drops included transactions and those below the new nonce', () => {
    const p = newPool()
    p.add(tx('a', 0, 10), 0n)
    p.add(tx('a', 1, 10), 0n)
    p.add(tx('a', 2, 10), 0n)
    p.removeIncluded([{ hash: 'a-1-10', sender: 'a', nonce: 1n }])
    expect(p.pending(0n).map((t) => t.nonce)).toEqual([2n])
    expect(p.get('a-0-10')).toBeUndefined()
  })
  it('tells listeners when a transaction becomes pending', () => {
    const p = newPool()
    let calls = 0
    p.onPending(() => calls++)
    p.add(tx('a', 1, 10), 0n)
    expect(calls).toBe(0)
    p.add(tx('a', 0, 10), 0n)
    expect(calls).toBe(1)
  })

  it('a state nonce read at an older head does not lower the floor and hide pending transactions', () => {
    const p = newPool()
    p.add(tx('a', 5, 10), 5n)
    // Validated against a head before the sender's nonces 3 and 4 were included.
    p.add(tx('a', 6, 10), 3n)
    expect(p.pending(0n).map((t) => t.nonce)).toEqual([5n, 6n])
    expect(() => p.add(tx('a', 4, 10), 3n)).toThrow(/nonce too low/)
  })
  it('after a reorg the senders of undone blocks learn their floor again from the next read', () => {
    const p = newPool()
    p.add(tx('a', 5, 10), 5n)
    p.forgetFloors(['a'])
    p.add(tx('a', 3, 10), 3n)
    p.add(tx('a', 4, 10), 3n)
    expect(p.pending(0n).map((t) => t.nonce)).toEqual([3n, 4n, 5n])
  })
  it('tracks only senders with pooled transactions', () => {
    const p = newPool()
    p.add(tx('a', 0, 10), 0n)
    p.removeIncluded(Array.from({ length: 1000 }, (_, i) => ({ hash: `x${i}`, sender: `s${i}`, nonce: 0n })))
    expect(p.trackedSenders).toBe(1)
    p.removeIncluded([{ hash: 'a-0-10', sender: 'a', nonce: 0n }])
    expect(p.trackedSenders).toBe(0)
    expect(p.size).toBe(0)
  })
  it('caps what one sender may hold after a nonce gap', () => {
    const p = newPool(1000)
    for (let n = 0; n < 64; n++) p.add(tx('a', 10 + n, 10), 0n)
    expect(() => p.add(tx('a', 100, 10), 0n)).toThrow('account limit exceeded')
    // A transaction that can run is still welcome.
    p.add(tx('a', 0, 10), 0n)
    expect(p.size).toBe(65)
  })
  it('caps what one sender may pool', () => {
    const p = new TxPool({ maxSize: 100, priceBumpPercent: 10, accountSlots: 3 })
    for (let n = 0; n < 3; n++) p.add(tx('a', n, 10), 0n)
    expect(() => p.add(tx('a', 3, 10), 0n)).toThrow('account limit exceeded')
    p.add(tx('a', 2, 11), 0n)
    p.add(tx('b', 0, 10), 0n)
    expect(p.size).toBe(4)
  })
  it('orders many senders by tip at the base fee, each sender in nonce order', () => {
    const p = new TxPool({ maxSize: 100_000, priceBumpPercent: 10 })
    for (let s = 0; s < 2000; s++) for (let n = 0; n < 5; n++) p.add(tx(`s${s}`, n, 100 + ((s * 7 + n * 13) % 97), 1 + ((s * 3 + n) % 50)), 0n)
    const out = p.pending(90n)
    expect(out).toHaveLength(10_000)
    const next = new Map<string, bigint>()
    for (const t of out) {
      expect(t.nonce).toBe(next.get(t.sender) ?? 0n)
      next.set(t.sender, t.nonce + 1n)
    }
    // Greedy by the head of each run: no later pick from another sender's head pays more than an earlier pick.
    const tip = (t: PooledTx) => (t.maxFee - 90n < t.maxPriorityFee ? t.maxFee - 90n : t.maxPriorityFee)
    expect(tip(out[0]!)).toBe(out.filter((t) => t.nonce === 0n).reduce((m, t) => (tip(t) > m ? tip(t) : m), -1n))
  })
  it('drops a transaction whose send was refused: the same one is welcome again, later nonces wait behind the gap', () => {
    const p = newPool()
    p.add(tx('a', 0, 10), 0n)
    p.add(tx('a', 1, 10), 0n)
    p.drop('a-0-10')
    expect(p.get('a-0-10')).toBeUndefined()
    expect(p.pending(0n)).toEqual([])
    expect(p.bySenderSplit('a')[0]!.queued.map((t) => t.nonce)).toEqual([1n])
    p.add(tx('a', 0, 10), 0n)
    expect(p.pending(0n).map((t) => t.nonce)).toEqual([0n, 1n])
    p.drop('a-1-10')
    p.drop('a-0-10')
    expect(p.size).toBe(0)
    expect(p.trackedSenders).toBe(0)
  })
})
