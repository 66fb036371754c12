import { describe, expect, it } from 'vitest'
import { bytesToHex, hexToBytes, toQuantity } from './hex.js'

describe('hex codecs', () => {
  it('round-trips bytes through hex', () => {
    const b = new Uint8Array([0, 1, 0xab, 0xff])
    expect(bytesToHex(b)).toBe('0x0001abff')
    expect(hexToBytes('0x0001ABff')).toEqual(b)
  })
  it('encodes long inputs (the native path) exactly like short ones', () => {
    const long = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 255)
    expect(bytesToHex(long)).toBe(`0x${Buffer.from(long).toString('hex')}`)
    expect(hexToBytes(bytesToHex(long))).toEqual(long)
  })
  it('rejects odd length, missing prefix and bad digits', () => {
    expect(() => hexToBytes('0x123')).toThrow(/odd/)
    expect(() => hexToBytes('1234')).toThrow(/prefix/)
    expect(() => hexToBytes('0xzz')).toThrow(/digit/)
  })
  it('writes quantities without leading zeros', () => {
    expect(toQuantity(0n)).toBe('0x0')
    expect(toQuantity(255)).toBe('0xff')
  })
})
