import { describe, expect, it } from 'vitest'
import { formatGoDuration, parseGoDuration } from './goDuration.js'

describe("Go's time.ParseDuration", () => {
  it('reads what Go reads: units from ns to h, fractions, sequences, a sign, a bare 0', () => {
    const cases: [string, number][] = [
      ['10s', 10_000],
      ['500ms', 500],
      ['1m30s', 90_000],
      ['1.5h', 5_400_000],
      ['.5s', 500],
      ['1.s', 1000],
      ['250us', 0.25],
      ['250µs', 0.25],
      ['250μs', 0.25],
      ['1000000ns', 1],
      ['0', 0],
      ['+2s', 2000],
      ['-1s', -1000],
      ['0s', 0],
    ]
    for (const [text, ms] of cases) expect(parseGoDuration(text), text).toEqual({ ms })
  })

  it("refuses what Go refuses, in Go's words", () => {
    expect(parseGoDuration('')).toEqual({ error: 'time: invalid duration ""' })
    expect(parseGoDuration('10')).toEqual({ error: 'time: missing unit in duration "10"' })
    expect(parseGoDuration('10 s')).toEqual({ error: 'time: unknown unit " s" in duration "10 s"' })
    expect(parseGoDuration('5sec')).toEqual({ error: 'time: unknown unit "sec" in duration "5sec"' })
    expect(parseGoDuration('s')).toEqual({ error: 'time: invalid duration "s"' })
    expect(parseGoDuration('.s')).toEqual({ error: 'time: invalid duration ".s"' })
    expect(parseGoDuration('-')).toEqual({ error: 'time: invalid duration "-"' })
    expect(parseGoDuration('3000000h')).toEqual({ error: 'time: invalid duration "3000000h"' })
  })
})

describe("Go's time.Duration.String", () => {
  it('writes what Go writes', () => {
    const cases: [number, string][] = [
      [0, '0s'],
      [100, '100ms'],
      [10, '10ms'],
      [1.5, '1.5ms'],
      [0.25, '250µs'],
      [0.000_001, '1ns'],
      [5_000, '5s'],
      [20_500, '20.5s'],
      [90_000, '1m30s'],
      [600_000, '10m0s'],
      [3_600_000, '1h0m0s'],
      [5_400_500, '1h30m0.5s'],
      [-1_000, '-1s'],
    ]
    for (const [ms, text] of cases) expect(formatGoDuration(ms), String(ms)).toBe(text)
  })
})
