import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import type { ChainStore } from '../store/chainStore.js'
import { equalBytes } from '../util/hex.js'
import { stateManagerInternals } from './ethereumjsInternals.js'

type TrieGet = MerklePatriciaTrie['get']

/**
 * Makes a state manager read accounts and slots from the store's flat table (store/flatState.ts) instead of walking
 * the tries, whenever the table holds the state being read. The switch is made below EthereumJS's caches, at the
 * tries' own `get`, so every caching and journaling rule of the state manager is unchanged: a flat read returns the
 * bytes the trie walk would have.
 *
 * The account trie is at a block's state root from `setStateRoot` until the block's one flush at its end; that root
 * is what the table is compared with on each read. A storage trie is consulted only while its account is unchanged
 * since that root, except after a storage clear, which sets the trie to the empty root — answered by the trie itself.
 */
export function installFlatReads(sm: MerkleStateManager, store: ChainStore): void {
  const internals = stateManagerInternals(sm)
  const accountTrie = internals._trie
  const readAccount: TrieGet = accountTrie.get.bind(accountTrie)
  accountTrie.get = (key, throwIfMissing) => {
    const flat = key.length === 20 ? store.flatAccount(accountTrie.root(), key) : undefined
    return flat === undefined ? readAccount(key, throwIfMissing) : Promise.resolve(flat)
  }
  const storageTrieOf = internals._getStorageTrie.bind(sm)
  const wrapped = new WeakSet<MerklePatriciaTrie>()
  internals._getStorageTrie = (addressOrHash, rootAccount) => {
    const trie = storageTrieOf(addressOrHash, rootAccount)
    // Proofs ask by hashed address; those walk the trie as before.
    if (!(addressOrHash instanceof Address) || wrapped.has(trie)) return trie
    wrapped.add(trie)
    const readSlot: TrieGet = trie.get.bind(trie)
    const key = new Uint8Array(52)
    key.set(addressOrHash.bytes, 0)
    trie.get = (slot, throwIfMissing) => {
      if (slot.length !== 32 || equalBytes(trie.root(), KECCAK256_RLP)) return readSlot(slot, throwIfMissing)
      key.set(keccak256(slot), 20)
      const flat = store.flatSlot(accountTrie.root(), key)
      return flat === undefined ? readSlot(slot, throwIfMissing) : Promise.resolve(flat)
    }
    return trie
  }
}
