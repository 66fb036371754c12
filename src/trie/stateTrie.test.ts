import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MapDB, ValueEncoding } from '@ethereumjs/util'
import { afterAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { ChainStore } from '../store/chainStore.js'
import { OverlayTrieDB } from '../store/trieDb.js'
import { bytesToHex } from '../util/hex.js'
import { StateTrie } from './stateTrie.js'

const spec = new ChainSpec(devGenesis())
const dir = mkdtempSync(join(tmpdir(), 'sponge-trie-'))
const store = new ChainStore(dir)
afterAll(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A deterministic stream of pseudo-random numbers, so a failure replays (use the high bits: the low ones cycle). */
function rng(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    return s
  }
}

function bytes(next: () => number, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => (next() >>> 16) & 255)
}

const reference = () =>
  new MerklePatriciaTrie({ db: new MapDB(), useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common: spec.common })

describe('StateTrie', () => {
  it('computes the roots and reads of EthereumJS trie over batches of inserts, updates and deletes', async () => {
    const next = rng(7)
    const nodes = new OverlayTrieDB(store)
    const trie = StateTrie.create(nodes, spec.common)
    const ref = reference()
    const keys: Uint8Array[] = []
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 150; i++) {
        const r = next() % 10
        if (r < 5 || keys.length === 0) {
          const k = bytes(next, 20)
          keys.push(k)
          // Values from 1 to 40 bytes: small ones make nodes under 32 bytes, embedded in their parents.
          const v = bytes(next, 1 + (next() % 40))
          await trie.put(k, v)
          await ref.put(k, v)
        } else if (r < 8) {
          const k = keys[next() % keys.length]!
          const v = bytes(next, 1 + (next() % 3))
          await trie.put(k, v)
          await ref.put(k, v)
        } else {
          const k = keys.splice(next() % keys.length, 1)[0]!
          await trie.del(k)
          await ref.del(k)
        }
      }
      // Reads before the root is asked for see the queued writes.
      for (let i = 0; i < 20 && keys.length > 0; i++) {
        const k = keys[next() % keys.length]!
        expect(await trie.get(k)).toEqual(await ref.get(k))
      }
      expect(bytesToHex(trie.root())).toBe(bytesToHex(ref.root()))
    }
    // Everything but one key removed: the trie folds back to a single leaf.
    for (const k of keys.slice(1)) {
      await trie.del(k)
      await ref.del(k)
    }
    expect(bytesToHex(trie.root())).toBe(bytesToHex(ref.root()))
    expect(await trie.get(keys[0]!)).toEqual(await ref.get(keys[0]!))
  })

  it('embeds nodes under 32 bytes in their parents, and unfolds them again, as EthereumJS does', async () => {
    // Unhashed keys that differ only in their last byte leave leaves of one or two nibbles: tiny nodes.
    const opts = { useKeyHashing: false, valueEncoding: ValueEncoding.Bytes, common: spec.common }
    const nodes = new OverlayTrieDB(store)
    const trie = new StateTrie(nodes, opts)
    const ref = new MerklePatriciaTrie({ ...opts, db: new MapDB() })
    const next = rng(3)
    const key = (last: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? last : 7))
    const live = new Set<number>()
    for (let i = 0; i < 400; i++) {
      const last = (next() >>> 16) & 255
      if (live.has(last) && (next() >>> 16) % 3 === 0) {
        live.delete(last)
        await trie.del(key(last))
        await ref.del(key(last))
      } else {
        live.add(last)
        const v = bytes(next, 1 + (next() % 3))
        await trie.put(key(last), v)
        await ref.put(key(last), v)
      }
      if (i % 25 === 0) expect(bytesToHex(trie.root())).toBe(bytesToHex(ref.root()))
    }
    expect(bytesToHex(trie.root())).toBe(bytesToHex(ref.root()))
    for (const last of live) expect(await trie.get(key(last))).toEqual(await ref.get(key(last)))
    // A second trie decodes the embedded nodes from the stored ones, and edits through them.
    const fresh = new StateTrie(nodes, { ...opts, root: trie.root() })
    for (const last of live) expect(await fresh.get(key(last))).toEqual(await ref.get(key(last)))
    for (const last of [...live].slice(0, live.size - 2)) {
      await fresh.del(key(last))
      await ref.del(key(last))
    }
    expect(bytesToHex(fresh.root())).toBe(bytesToHex(ref.root()))
  })

  it('stores every node a reader of the root needs, readable by a fresh EthereumJS trie', async () => {
    const next = rng(11)
    const nodes = new OverlayTrieDB(store)
    const trie = StateTrie.create(nodes, spec.common)
    const written = new Map<Uint8Array, Uint8Array>()
    for (let i = 0; i < 300; i++) {
      const k = bytes(next, 20)
      const v = bytes(next, 1 + (next() % 70))
      written.set(k, v)
      await trie.put(k, v)
    }
    const root = trie.root()
    const reader = reference()
    reader.database(nodes, ValueEncoding.Bytes)
    reader.root(root)
    for (const [k, v] of written) expect(await reader.get(k)).toEqual(v)
  })

  it('goes back to an earlier root, and forgets writes queued against a root it leaves', async () => {
    const nodes = new OverlayTrieDB(store)
    const trie = StateTrie.create(nodes, spec.common)
    const a = Uint8Array.of(1)
    const b = Uint8Array.of(2)
    await trie.put(a, Uint8Array.of(10))
    const first = trie.root()
    await trie.put(b, Uint8Array.of(20))
    const second = trie.root()
    trie.root(first)
    expect(await trie.get(b)).toBeNull()
    await trie.put(a, Uint8Array.of(11))
    trie.root(second)
    expect(await trie.get(a)).toEqual(Uint8Array.of(10))
    expect(await trie.get(b)).toEqual(Uint8Array.of(20))
    expect(bytesToHex(trie.root())).toBe(bytesToHex(second))
  })

  it('leaves writes under a checkpoint to EthereumJS, and reverting them restores the root', async () => {
    const nodes = new OverlayTrieDB(store)
    const trie = StateTrie.create(nodes, spec.common)
    await trie.put(Uint8Array.of(1), Uint8Array.of(10))
    const before = trie.root()
    trie.checkpoint()
    await trie.put(Uint8Array.of(2), Uint8Array.of(20))
    expect(await trie.get(Uint8Array.of(2))).toEqual(Uint8Array.of(20))
    await trie.revert()
    expect(bytesToHex(trie.root())).toBe(bytesToHex(before))
    expect(await trie.get(Uint8Array.of(2))).toBeNull()
    trie.checkpoint()
    await trie.put(Uint8Array.of(3), Uint8Array.of(30))
    await trie.commit()
    // After the commit the nodes are in the store, where this class's own reads find them.
    expect(await trie.get(Uint8Array.of(3))).toEqual(Uint8Array.of(30))
    expect(await trie.get(Uint8Array.of(1))).toEqual(Uint8Array.of(10))
  })
})
