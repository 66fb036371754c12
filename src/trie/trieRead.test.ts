import { MerklePatriciaTrie, createMerkleProof } from '@ethereumjs/mpt'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex } from '../util/hex.js'
import { MissingTrieNodeError, TrieBatch } from './trieBatch.js'
import { trieGet } from './trieRead.js'

function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const bytes = (rand: () => number, n: number) => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256))

/** A trie of `n` random entries (short values too, so some nodes are inlined), its stored nodes and the entries. */
function build(seed: number, n: number, keyBytes: number) {
  const rand = prng(seed)
  const nodes = new Map<string, Uint8Array>()
  const entries = new Map<string, Uint8Array>()
  const batch = new TrieBatch(KECCAK256_RLP, () => undefined)
  for (let i = 0; i < n; i++) {
    const key = keyBytes === 32 ? keccak256(bytes(rand, 8)) : bytes(rand, keyBytes)
    const value = bytes(rand, 1 + Math.floor(rand() * 40))
    batch.put(key, value)
    entries.set(bytesToHex(key), value)
  }
  const root = batch.commit((hash, encoded) => nodes.set(bytesToHex(hash), encoded))
  return { root, entries, load: (h: Uint8Array) => nodes.get(bytesToHex(h)), rand }
}

describe('trieGet', () => {
  it('reads back every entry of a stored trie, and nothing for keys it lacks', () => {
    for (const [seed, n, keyBytes] of [
      [1, 1, 32],
      [2, 300, 32],
      [3, 200, 3],
    ] as const) {
      const { root, entries, load, rand } = build(seed, n, keyBytes)
      for (const [key, value] of entries) expect(trieGet(root, Buffer.from(key.slice(2), 'hex'), load)).toEqual(value)
      for (let i = 0; i < 50; i++) expect(trieGet(root, keccak256(bytes(rand, 9)), load)).toBeUndefined()
    }
    expect(trieGet(KECCAK256_RLP, new Uint8Array(32), () => undefined)).toBeUndefined()
  })

  it("collects EthereumJS's proof of a key, present or absent", async () => {
    const { root, entries, load, rand } = build(4, 500, 32)
    const reference = new MerklePatriciaTrie()
    for (const [key, value] of entries) await reference.put(Buffer.from(key.slice(2), 'hex'), value)
    expect(bytesToHex(reference.root())).toBe(bytesToHex(root))
    const keys = [...entries.keys()].slice(0, 20).map((k) => Buffer.from(k.slice(2), 'hex'))
    for (let i = 0; i < 20; i++) keys.push(Buffer.from(keccak256(bytes(rand, 5))))
    for (const key of keys) {
      const proof: Uint8Array[] = []
      trieGet(root, key, load, proof)
      expect(proof.map(bytesToHex)).toEqual((await createMerkleProof(reference, key)).map(bytesToHex))
    }
  })

  it('says which node the store lacks', () => {
    const { root, entries } = build(5, 50, 32)
    const key = Buffer.from([...entries.keys()][0]!.slice(2), 'hex')
    expect(() => trieGet(root, key, () => undefined)).toThrow(MissingTrieNodeError)
  })
})
