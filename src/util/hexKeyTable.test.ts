import { describe, expect, it } from 'vitest'
import { HexKeyTable } from './hexKeyTable.js'

const hex = (n: number, width: number) => `0x${n.toString(16).padStart(width, '0')}`

describe('HexKeyTable', () => {
  it('answers as a Map does over hashes, addresses, slots and keys that share their last characters, for what it keeps', () => {
    const table = new HexKeyTable<number>()
    const map = new Map<string, number>()
    const keys: string[] = []
    for (let i = 0; i < 3000; i++) {
      keys.push(hex(i * 2654435761, 64), hex(i, 40), hex(i, 1), `0x${'ab'.repeat(i % 7)}${hex(i % 50, 8).slice(2)}`)
    }
    let step = 0
    for (const k of keys) {
      step++
      table.set(k, step)
      map.set(k, step)
      // Every few keys one set again: replaced, not added twice.
      if (step % 5 === 0) {
        table.set(keys[step >> 1]!, -step)
        map.set(keys[step >> 1]!, -step)
      }
    }
    // What it answers is the Map's; what it does not keep (keys of one run past MAX_PROBES) is a few of the keys that
    // share their last characters seven at a time.
    let found = 0
    for (const k of new Set(keys)) {
      const got = table.get(k)
      if (got === undefined) continue
      expect(got).toBe(map.get(k))
      found++
    }
    expect(table.size).toBe(found)
    expect(found).toBeGreaterThan(map.size * 0.99)
    // Keys never set, some sharing a set key's last eight characters.
    for (let i = 0; i < 500; i++) {
      expect(table.get(hex(i * 2654435761 + 1, 64))).toBeUndefined()
      expect(table.get(`0x1${hex(i, 40).slice(3)}ff`)).toBe(map.get(`0x1${hex(i, 40).slice(3)}ff`))
    }
    expect(table.get('')).toBeUndefined()
  })

  it('compares whole keys: a fresh string equal to a kept key finds it, one differing only in its case does not', () => {
    const table = new HexKeyTable<string>()
    const key = `0x${'aB'.repeat(20)}`
    table.set(key, 'kept')
    const fresh = JSON.parse(JSON.stringify(key)) as string
    expect(table.get(fresh)).toBe('kept')
    expect(table.get(key.toLowerCase())).toBeUndefined()
  })

  it('is empty after clear and fills again', () => {
    const table = new HexKeyTable<number>()
    for (let i = 0; i < 100; i++) table.set(hex(i, 64), i)
    table.clear()
    expect(table.size).toBe(0)
    expect(table.get(hex(7, 64))).toBeUndefined()
    table.set(hex(7, 64), 7)
    expect(table.get(hex(7, 64))).toBe(7)
    expect(table.size).toBe(1)
  })

  it('keeps keys that share their last eight characters only near their own slot, and never answers one for another', () => {
    const table = new HexKeyTable<number>()
    // A client's addresses, all ending in the same eight digits.
    const same = Array.from({ length: 2000 }, (_, i) => `0x${i.toString(16).padStart(32, '0')}deadbeef`)
    const kept = same.map((k, i) => table.set(k, i))
    expect(kept.filter((k) => k).length).toBeLessThanOrEqual(16)
    for (const [i, k] of same.entries()) expect(table.get(k)).toBe(kept[i] ? i : undefined)
    // Other keys are kept as before (but one whose own slot the run of those took, which may not be).
    const others = Array.from({ length: 100 }, (_, i) => table.set(hex(i * 2654435761, 64), i))
    expect(others.filter((k) => k).length).toBeGreaterThanOrEqual(95)
    for (const [i, k] of others.entries()) expect(table.get(hex(i * 2654435761, 64))).toBe(k ? i : undefined)
  })
})
