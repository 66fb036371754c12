import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../util/hex.js'
import { orderedTrieRoot } from './orderedTrie.js'

async function reference(values: Uint8Array[]): Promise<string> {
  const trie = new MerklePatriciaTrie()
  for (const [i, v] of values.entries()) await trie.put(RLP.encode(i), v)
  return bytesToHex(trie.root())
}

describe('ordered trie root', () => {
  it('matches EthereumJS’s trie for 0, 1, small and large lists, short and long values', async () => {
    for (const n of [0, 1, 2, 3, 16, 17, 127, 128, 129, 300, 1000]) {
      const values = Array.from({ length: n }, (_, i) => new Uint8Array(i % 7 === 0 ? 2 : 40 + (i % 50)).fill(i % 251))
      expect(bytesToHex(orderedTrieRoot(values)), `n=${n}`).toBe(await reference(values))
    }
  })
})
