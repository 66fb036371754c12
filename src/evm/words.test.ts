import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bitLength, byteLength, bytesToWord, MAX_UINT256, readWord, wordToBytes, writeWord } from './words.js'

// The crossings between words and bytes have fast paths by size (words.ts); each checked against the plain definition.

const naiveRead = (bytes: Uint8Array, offset: number): bigint => {
  let v = 0n
  for (let i = 0; i < 32; i++) v = (v << 8n) | BigInt(bytes[offset + i] ?? 0)
  return v
}

/** Words of every size class: zero, under 2^53, just over, address-sized, full. */
const word = fc.oneof(
  fc.constant(0n),
  fc.bigInt({ min: 0n, max: (1n << 53n) - 1n }),
  fc.bigInt({ min: 1n << 53n, max: (1n << 64n) - 1n }),
  fc.bigInt({ min: 0n, max: (1n << 160n) - 1n }),
  fc.bigInt({ min: 0n, max: MAX_UINT256 }),
)

describe('words', () => {
  it('writes and reads back every size of word at any offset', () => {
    fc.assert(
      fc.property(word, fc.nat(40), (v, offset) => {
        const buf = new Uint8Array(80).fill(0xaa)
        writeWord(buf, offset, v)
        expect(naiveRead(buf, offset)).toBe(v)
        expect(readWord(buf, offset)).toBe(v)
        expect(buf[offset + 32]).toBe(0xaa)
        if (offset > 0) expect(buf[offset - 1]).toBe(0xaa)
      }),
    )
  })

  it('reads past the end of the data as zeros', () => {
    const data = Uint8Array.from([1, 2, 3])
    expect(readWord(data, 0)).toBe(0x010203n << 232n)
    expect(readWord(data, 2)).toBe(0x03n << 248n)
    expect(readWord(data, 5)).toBe(0n)
  })

  it('converts short big-endian bytes and counts a value’s bytes', () => {
    expect(bytesToWord(Uint8Array.from([0x12, 0x34]))).toBe(0x1234n)
    expect(bytesToWord(wordToBytes(MAX_UINT256))).toBe(MAX_UINT256)
    expect(byteLength(0n)).toBe(0)
    expect(byteLength(0xffn)).toBe(1)
    expect(byteLength(0x100n)).toBe(2)
    expect(byteLength(MAX_UINT256)).toBe(32)
  })

  it('counts the bits of a word as its binary form does', () => {
    expect(bitLength(0n)).toBe(0)
    expect(bitLength(1n)).toBe(1)
    expect(bitLength(MAX_UINT256)).toBe(256)
    for (let i = 0n; i < 256n; i++) {
      expect(bitLength(1n << i)).toBe(Number(i) + 1)
      expect(bitLength((1n << i) - 1n)).toBe(Number(i))
    }
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: MAX_UINT256 }), (v) => bitLength(v) === (v === 0n ? 0 : v.toString(2).length)))
  })
})
