import { performance } from 'node:perf_hooks'
import { afterEach, describe, expect, it, vi } from 'vitest'

const collections = vi.hoisted(() => ({ count: 0 }))
vi.mock('../util/fullCollection.js', () => ({
  fullCollection: () => () => {
    collections.count++
  },
}))

const { settleWhenQuiet } = await import('./settle.js')

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  collections.count = 0
})

/** Runs the checks, one 1.5 s span each busy the given share of its time; returns after which span each collection came. */
function spans(shares: number[]): { serving: number[]; workers: number[] } {
  vi.useFakeTimers()
  let share = 0
  const idle = { idle: 0, active: 0, utilization: 0 }
  vi.spyOn(performance, 'eventLoopUtilization').mockImplementation((a?: unknown) => (a === undefined ? idle : { ...idle, utilization: share }))
  const out = { serving: [] as number[], workers: [] as number[] }
  let span = 0
  const stop = settleWhenQuiet(() => out.workers.push(span))
  for (span = 1; span <= shares.length; span++) {
    share = shares[span - 1]!
    const before = collections.count
    vi.advanceTimersByTime(1_500)
    if (collections.count > before) out.serving.push(span)
  }
  stop()
  return out
}

describe('settleWhenQuiet', () => {
  it('collects the serving thread and the workers twice in a quiet spell, 6 s apart, and again after work', () => {
    // Busy (start-up), then quiet for six spans, busy again, then quiet for five.
    const q = 0.001
    const got = spans([0.5, q, q, q, q, q, q, 0.3, q, q, q, q, q])
    expect(got.serving).toEqual([2, 6, 9, 13])
    expect(got.workers).toEqual([2, 6, 9, 13])
  })
  it('never collects a thread that stays busy', () => {
    expect(spans([0.05, 0.2, 0.03, 0.9, 0.02, 0.5])).toEqual({ serving: [], workers: [] })
  })
})
