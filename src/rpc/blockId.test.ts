import { describe, expect, it } from 'vitest'
import { blockIdOf } from './blockId.js'

const HASH = `0x${'ab'.repeat(32)}`

describe('block parameters into BlockId, at the edge', () => {
  it('tags, numbers, bare hashes and EIP-1898 objects', () => {
    expect(blockIdOf(undefined)).toEqual({ tag: 'latest' })
    expect(blockIdOf(undefined, 'earliest')).toEqual({ tag: 'earliest' })
    for (const tag of ['earliest', 'latest', 'pending', 'safe', 'finalized'] as const) expect(blockIdOf(tag)).toEqual({ tag })
    expect(blockIdOf('0x0')).toEqual({ number: 0n })
    expect(blockIdOf('0xffffffffffffffff')).toEqual({ number: 2n ** 64n - 1n })
    expect(blockIdOf(HASH)).toEqual({ hash: new Uint8Array(32).fill(0xab), mustExist: false, requireCanonical: false })
    expect(blockIdOf({ blockHash: HASH })).toEqual({ hash: new Uint8Array(32).fill(0xab), mustExist: true, requireCanonical: false })
    expect(blockIdOf({ blockHash: HASH, requireCanonical: true })).toEqual({
      hash: new Uint8Array(32).fill(0xab),
      mustExist: true,
      requireCanonical: true,
    })
    expect(blockIdOf({ blockNumber: '0x10' })).toEqual({ number: 16n })
    expect(blockIdOf({ blockNumber: 'safe' })).toEqual({ tag: 'safe' })
  })
})
