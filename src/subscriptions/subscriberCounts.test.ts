import { describe, expect, it } from 'vitest'
import { SubscriberCounts } from './hub.js'

describe('SubscriberCounts', () => {
  it("sees a subscription made on any thread's row, in the memory the threads share, until it goes", () => {
    const memory = SubscriberCounts.shared(2)
    const main = new SubscriberCounts(memory)
    const thread = new SubscriberCounts(memory)
    expect(main.any()).toBe(false)
    thread.add(1, 1)
    expect(main.any()).toBe(true)
    thread.add(1, -1)
    expect(main.any()).toBe(false)
  })

  it("forgets a thread's subscriptions when its row is cleared (the thread ended), not the other threads'", () => {
    const counts = new SubscriberCounts(SubscriberCounts.shared(2))
    counts.add(0, 2)
    counts.add(1, 1)
    counts.clear(0)
    expect(counts.any()).toBe(true)
    counts.clear(1)
    expect(counts.any()).toBe(false)
  })
})
