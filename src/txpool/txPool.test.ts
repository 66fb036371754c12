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
})
