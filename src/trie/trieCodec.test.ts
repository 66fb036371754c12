import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { encodeBranch, encodeExtension, encodeLeaf } from './trieCodec.js'

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill)

describe('trie node encoding', () => {
  it('writes leaves as RLP does, for single-byte, short and long (≥ 56 bytes) paths and values', () => {
    for (const path of [Uint8Array.of(0x20), Uint8Array.of(0x3a), bytes(33, 0x20), bytes(60, 0x31)]) {
      for (const value of [Uint8Array.of(0x05), Uint8Array.of(0x80), bytes(2, 1), bytes(55, 2), bytes(56, 3), bytes(300, 4), bytes(70_000, 5)]) {
        expect(encodeLeaf(path, value)).toEqual(RLP.encode([path, value]))
      }
    }
  })

  it('writes an extension to a hashed child and to an inline one', () => {
    const hash = bytes(32, 0xab)
    const inline = RLP.encode([Uint8Array.of(0x31), Uint8Array.of(7)])
    expect(encodeExtension(Uint8Array.of(0x00, 0x12), hash)).toEqual(RLP.encode([Uint8Array.of(0x00, 0x12), hash]))
    expect(encodeExtension(Uint8Array.of(0x11), inline)).toEqual(RLP.encode([Uint8Array.of(0x11), RLP.decode(inline)] as never))
  })

  it('writes branches with empty, hashed and inline children and with or without a value', () => {
    const hash = bytes(32, 0xcd)
    const inline = RLP.encode([Uint8Array.of(0x3f), bytes(3, 9)])
    const children = Array.from({ length: 16 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? hash : inline))
    const raw = (value: Uint8Array) => [...children.map((c) => (c === undefined ? new Uint8Array() : c === hash ? hash : RLP.decode(c))), value]
    for (const value of [new Uint8Array(), Uint8Array.of(1), bytes(40, 6)]) {
      expect(encodeBranch(children, value)).toEqual(RLP.encode(raw(value) as never))
    }
    expect(encodeBranch(new Array(16).fill(undefined), new Uint8Array())).toEqual(RLP.encode(new Array(17).fill(new Uint8Array())))
  })
})
