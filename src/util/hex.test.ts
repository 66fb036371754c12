import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes, quantityToNumber, toQuantity } from './hex.js'

describe('hex codecs', () => {
  it('round-trips bytes through hex', () => {
    const b = new Uint8Array([0, 1, 0xab, 0xff])
    expect(bytesToHex(b)).toBe('0x0001abff')
    expect(hexToBytes('0x0001ABff')).toEqual(b)
  })
  it('rejects odd length, missing prefix and bad digits', () => {
    expect(() => hexToBytes('0x123')).toThrow(/odd/)
    expect(() => hexToBytes('1234')).toThrow(/prefix/)
    expect(() => hexToBytes('0xzz')).toThrow(/digit/)
  })
  it('writes quantities without leading zeros', () => {
    expect(toQuantity(0n)).toBe('0x0')
    expect(toQuantity(255)).toBe('0xff')
    expect(quantityToNumber('0x36')).toBe(54)
  })
})
