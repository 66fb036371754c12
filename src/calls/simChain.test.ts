import { describe, expect, it } from 'vitest'
import type { SimulationError } from './errors.js'
import { planChain } from './simChain.js'

// The blocks of a simulation as geth's sanitizeChain settles them.

const base = { number: 100n, timestamp: 1_000n }

describe('a simulation’s chain', () => {
  it('numbers and times each block after the one before, 12 s apart, gaps filled with empty blocks', () => {
    const planned = planChain(base, [{ calls: [] }, { blockOverrides: { number: 104n }, calls: [] }, { blockOverrides: { time: 2_000n }, calls: [] }])
    expect(planned.map((p) => [p.number, p.time, p.block.calls.length])).toEqual([
      [101n, 1_012n, 0],
      [102n, 1_024n, 0],
      [103n, 1_036n, 0],
      [104n, 1_048n, 0],
      [105n, 2_000n, 0],
    ])
  })

  it('refuses numbers or times that do not increase, and blocks past 256 from the base', () => {
    const kind = (blocks: Parameters<typeof planChain>[1]) => {
      try {
        planChain(base, blocks)
        return undefined
      } catch (e) {
        return (e as SimulationError).kind
      }
    }
    expect(kind([{ blockOverrides: { number: 100n }, calls: [] }])).toBe('blockNumberOrder')
    expect(kind([{ blockOverrides: { time: 1_000n }, calls: [] }])).toBe('timestampOrder')
    expect(kind([{ blockOverrides: { number: 357n }, calls: [] }])).toBe('tooManyBlocks')
    expect(kind([{ blockOverrides: { number: 356n }, calls: [] }])).toBeUndefined()
  })
})
