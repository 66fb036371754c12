import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { sstoreCost, sstoreRefund, sstoreSchedule } from './gas.js'

/** Gas used and refund of writing `values` in turn to one slot holding `original`, as EIP-2200's table counts them. */
function writes(fork: Fork, original: bigint, values: bigint[]): { used: number; refund: number } {
  const s = sstoreSchedule(fork)
  let used = 0
  let refund = 0
  let current = original
  for (const value of values) {
    used += 6 + sstoreCost(s, original, current, value, false) // 6: the two PUSH1s
    refund += sstoreRefund(s, original, current, value)
    current = value
  }
  return { used, refund }
}

describe('SSTORE gas', () => {
  // EIP-2200's test cases (Istanbul), each a slot's original value and the values written in turn.
  const table: [bigint, bigint[], number, number][] = [
    [0n, [0n, 0n], 1612, 0],
    [0n, [0n, 1n], 20812, 0],
    [0n, [1n, 0n], 20812, 19200],
    [0n, [1n, 2n], 20812, 0],
    [0n, [1n, 1n], 20812, 0],
    [1n, [0n, 0n], 5812, 15000],
    [1n, [0n, 1n], 5812, 4200],
    [1n, [0n, 2n], 5812, 0],
    [1n, [2n, 0n], 5812, 15000],
    [1n, [2n, 3n], 5812, 0],
    [1n, [2n, 1n], 5812, 4200],
    [1n, [2n, 2n], 5812, 0],
    [1n, [1n, 0n], 5812, 15000],
    [1n, [1n, 2n], 5812, 0],
    [1n, [1n, 1n], 1612, 0],
    [0n, [1n, 0n, 1n], 40818, 19200],
    [1n, [0n, 1n, 0n], 10818, 19200],
  ]
  it.each(table)("meters EIP-2200's cases in Istanbul: original %s, writes %s", (original, values, used, refund) => {
    expect(writes(Fork.istanbul, original, values)).toEqual({ used, refund })
  })

  it('prices by the current value alone before Constantinople and in Petersburg', () => {
    for (const fork of [Fork.byzantium, Fork.petersburg]) {
      expect(writes(fork, 0n, [1n, 0n])).toEqual({ used: 20006 + 5006, refund: 15000 })
      expect(writes(fork, 1n, [1n])).toEqual({ used: 5006, refund: 0 })
    }
  })

  it('charges a cold slot and refunds 4,800 for a clear from London (EIP-2929, EIP-3529)', () => {
    const s = sstoreSchedule(Fork.london)
    expect(sstoreCost(s, 1n, 1n, 0n, true)).toBe(2100 + 2900)
    expect(sstoreRefund(s, 1n, 1n, 0n)).toBe(4800)
    expect(sstoreCost(s, 1n, 1n, 1n, false)).toBe(100)
  })
})
