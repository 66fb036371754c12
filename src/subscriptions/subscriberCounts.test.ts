import { describe, expect, it } from 'vitest'
import { SubscriberCounts } from './hub.js'

describe('SubscriberCounts', () => {
  it("sees a subscription made on any thread's row, by kind, in the memory the threads share, until it goes", () => {
    const memory = SubscriberCounts.shared(2)
    const main = new SubscriberCounts(memory)
    const thread = new SubscriberCounts(memory)
    expect(main.any('pending')).toBe(false)
    expect(main.any('chain')).toBe(false)
    thread.add(1, 'pending', 1)
    expect(main.any('pending')).toBe(true)
    expect(main.any('chain')).toBe(false)
    thread.add(0, 'chain', 2)
    expect(main.any('chain')).toBe(true)
    thread.add(1, 'pending', -1)
    expect(main.any('pending')).toBe(false)
    thread.add(0, 'chain', -2)
    expect(main.any('chain')).toBe(false)
  })

  it("forgets a thread's subscriptions when its row is cleared (the thread ended), not the other threads'", () => {
    const counts = new SubscriberCounts(SubscriberCounts.shared(2))
    counts.add(0, 'pending', 2)
    counts.add(0, 'chain', 1)
    counts.add(1, 'chain', 1)
    counts.clear(0)
    expect(counts.any('pending')).toBe(false)
    expect(counts.any('chain')).toBe(true)
    counts.clear(1)
    expect(counts.any('chain')).toBe(false)
  })
})
