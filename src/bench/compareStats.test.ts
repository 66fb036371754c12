import { describe, expect, it } from 'vitest'
import {
  BLOCK_ROUNDS,
  type Measured,
  type Round,
  type Side,
  measured,
  noiseFloor,
  roundOrder,
  summarize,
  verdict,
  wholeBlocks,
  workloadsOfRun,
} from './compareStats.js'

const SIDES: Side[] = ['A', 'B', 'control']
const ok = (answeredPerSec: number, refusedPerSec = 0): Measured => ({ answeredPerSec, refusedPerSec })

/**
 * Rounds where each side's rate is its own rate times a factor for the position it ran at in that round: what a
 * machine that measures later runs lower does to a comparison.
 */
function rounds(rate: Record<Side, number>, positionFactor: number[], n = BLOCK_ROUNDS, workload = 'w'): Round[] {
  return Array.from({ length: n }, (_, r) => {
    const order = roundOrder(r)
    const round = {} as Round
    for (const side of SIDES) round[side] = { [workload]: ok(rate[side] * positionFactor[order.indexOf(side)]!) }
    return round
  })
}

describe('roundOrder', () => {
  it('runs every side at every position once in each block of rounds', () => {
    for (let block = 0; block < 2; block++) {
      const orders = Array.from({ length: BLOCK_ROUNDS }, (_, i) => roundOrder(block * BLOCK_ROUNDS + i))
      for (const order of orders) expect([...order].sort()).toEqual([...SIDES].sort())
      for (let pos = 0; pos < SIDES.length; pos++) expect(orders.map((o) => o[pos]).sort()).toEqual([...SIDES].sort())
    }
  })

  it('alternates which of A and B runs first', () => {
    const aFirst = Array.from({ length: BLOCK_ROUNDS }, (_, r) => roundOrder(r)).map((o) => o.indexOf('A') < o.indexOf('B'))
    expect(aFirst).toContain(true)
    expect(aFirst).toContain(false)
  })

  it('raises the rounds asked for to whole blocks', () => {
    expect([1, 2, 3, 4, 6, Number.NaN].map(wholeBlocks)).toEqual([3, 3, 3, 6, 6, 3])
  })
})

describe('summarize', () => {
  it('cancels a position bias: the same rates measured lower later come out at their true ratio', () => {
    const s = summarize(rounds({ A: 1000, B: 1100, control: 1000 }, [1, 0.85, 0.7]), 'w')
    expect(s.ratio).toBeCloseTo(1.1, 10)
    expect(s.control).toBeCloseTo(1, 10)
    // Single rounds still show the bias: the min-max spread is wider than the ratio's own error.
    expect(s.ratioMin!).toBeLessThan(1)
    expect(s.ratioMax!).toBeGreaterThan(1.3)
  })

  it("states the control's deviation as the noise floor and flags a ratio within it", () => {
    // The control (the same build as A) came out 5% above A; B 3% above: no measured difference.
    const within = summarize(rounds({ A: 1000, B: 1030, control: 1050 }, [1, 1, 1]), 'w')
    expect(within.noise).toBeCloseTo(1.05, 10)
    expect(within.withinNoise).toBe(true)
    expect(verdict(within)).toBe('within noise')
    // A control below A bounds the floor the same way: 1/0.95 either side of 1.
    const below = summarize(rounds({ A: 1000, B: 960, control: 950 }, [1, 1, 1]), 'w')
    expect(below.noise).toBeCloseTo(1000 / 950, 10)
    expect(below.withinNoise).toBe(true)
  })

  it('reports a ratio outside the noise floor as a difference, either way', () => {
    const faster = summarize(rounds({ A: 1000, B: 1200, control: 1020 }, [1, 1, 1]), 'w')
    expect(faster.withinNoise).toBe(false)
    expect(verdict(faster)).toBe('B faster')
    const slower = summarize(rounds({ A: 1000, B: 800, control: 990 }, [1, 1, 1]), 'w')
    expect(verdict(slower)).toBe('B slower')
  })

  it("counts a position's bias into the floor: it errs towards 'within noise'", () => {
    // Later runs 10% and 20% lower: the control's single rounds scatter by that much, though its mean is exact.
    const s = summarize(rounds({ A: 1000, B: 1200, control: 1000 }, [1, 0.9, 0.8]), 'w')
    expect(s.ratio).toBeCloseTo(1.2, 10)
    expect(s.control).toBeCloseTo(1, 10)
    expect(s.noise!).toBeGreaterThan(1.2)
    expect(verdict(s)).toBe('within noise')
  })

  it("widens the floor to the scatter of the control's rounds when its mean lands near 1", () => {
    // The same build three times: rounds at 0.5, 2 and 1 of A average to exactly 1, yet a B/A of 1.5 is no
    // difference on such a machine.
    const scattered: Round[] = [0.5, 2, 1].map((c) => ({ A: { w: ok(1000) }, B: { w: ok(1500) }, control: { w: ok(1000 * c) } }))
    const s = summarize(scattered, 'w')
    expect(s.control).toBeCloseTo(1, 10)
    expect(s.noise!).toBeGreaterThan(1.5)
    expect(s.withinNoise).toBe(true)
    // Rounds that agree leave the floor at the mean's own deviation.
    expect(noiseFloor([1.05, 1.05, 1.05])).toBeCloseTo(1.05, 10)
  })

  it('gives B/A of answered calls only: a build that refuses everything at once is not faster', () => {
    const run = (a: Measured, b: Measured): Round => ({ A: { w: a }, B: { w: b }, control: { w: a } })
    // B answers 503 (or -32005) to everything, at 14 times A's rate of answers.
    const s = summarize(
      Array.from({ length: BLOCK_ROUNDS }, () => run(ok(1000), ok(0, 14_000))),
      'w',
    )
    expect(s.ratio).toBe(0)
    expect(verdict(s)).toBe('B slower')
    expect(s.refused).toEqual({ A: 0, B: 14_000 })
    const none = summarize(
      Array.from({ length: BLOCK_ROUNDS }, () => run(ok(0, 14_000), ok(1000))),
      'w',
    )
    expect(none.ratio).toBeUndefined()
    expect(verdict(none)).toBe('A answered nothing')
  })
})

describe('measured', () => {
  it('counts results as throughput and error replies and HTTP errors as refused', () => {
    expect(measured({ resultsPerSec: 900, errorRepliesPerSec: 100, errors: 300 }, 3)).toEqual({ answeredPerSec: 900, refusedPerSec: 200 })
  })

  it('refuses a run without counted replies', () => {
    expect(() => measured({ errors: 0 }, 3)).toThrow(/counted/)
  })

  it("reads a bench:load run's workloads, Sponge's rows beside anvil only", () => {
    const w = workloadsOfRun({
      seconds: 2,
      rows: [{ workload: 'eth_chainId', connections: 64, resultsPerSec: 5000, errorRepliesPerSec: 0, errors: 0 }],
      stateReads: [
        { workload: 'eth_getBalance batch of 100', connections: 64, server: 'sponge', resultsPerSec: 0, errorRepliesPerSec: 0, errors: 4000 },
        { workload: 'eth_getBalance batch of 100', connections: 64, server: 'anvil', resultsPerSec: 90_000, errors: 0 },
      ],
      flood: [{ connections: 4, resultsPerSec: 300, refusedPerSec: 10, http503PerSec: 5 }],
      execution: { sponge: { txPerSec: 700 } },
    })
    expect(w).toEqual({
      'eth_chainId c=64': ok(5000),
      'eth_getBalance batch of 100 c=64': ok(0, 2000),
      'flood c=4': ok(300, 15),
      'engine_newPayloadV4 replay (tx/s)': ok(700),
    })
  })
})
