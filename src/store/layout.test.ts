import { describe, expect, it } from 'vitest'
import { indexedKey, numberKey, readNumberKey, readTxLocation, txLocationValue, writeIndexedKey } from './layout.js'

describe('key layout codecs', () => {
  it('numbers are 8-byte big-endian and read back, up to 2^64 - 1', () => {
    expect(Buffer.from(numberKey(0x0102_0304_0506n)).toString('hex')).toBe('0000010203040506')
    for (const n of [0n, 1n, 255n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 64n - 1n]) {
      expect(readNumberKey(numberKey(n))).toBe(n)
    }
    expect(() => numberKey(2n ** 64n)).toThrow(RangeError)
    expect(() => numberKey(-1n)).toThrow(RangeError)
  })
  it('per-transaction keys are block hash then uint32 index, and a location reads back', () => {
    const hash = new Uint8Array(32).fill(7)
    const key = indexedKey(hash, 0x01020304)
    expect(Buffer.from(key.subarray(32)).toString('hex')).toBe('01020304')
    expect(writeIndexedKey(new Uint8Array(36), hash, 0x01020304)).toEqual(key)
    const loc = readTxLocation(txLocationValue(hash, 4_000_000_000))
    expect(loc.index).toBe(4_000_000_000)
    expect(loc.blockHash).toEqual(hash)
  })
})
