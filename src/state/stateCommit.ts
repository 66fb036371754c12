import { RLP } from '@ethereumjs/rlp'
import { CODEHASH_PREFIX, type MerkleStateManager } from '@ethereumjs/statemanager'
import { Account, createAddressFromString } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex, concatBytes, hexToBytes } from '../util/hex.js'
import type { NodeSink } from '../trie/orderedTrie.js'
import { type NodeLoader, TrieBatch } from '../trie/trieBatch.js'
import { stateManagerInternals } from './ethereumjsInternals.js'

const NO_BYTES = new Uint8Array()

/**
 * Makes the state manager write its caches to the tries in one batch per trie (exec/trieBatch.ts) instead of one
 * EthereumJS trie put per slot and account, each re-hashing its whole path. Same order and values as EthereumJS's
 * own `flush`: code first, then every account's changed slots (its storage root updated in the account cache), then
 * the accounts. The caches' `flush` methods are still what hands out the changes, so what wraps them
 * (stateChangeRecorder) sees the same lists.
 */
export function installBatchedCommit(sm: MerkleStateManager, trieDb: NodeStore): void {
  const internals = stateManagerInternals(sm)
  const load: NodeLoader = (hash) => trieDb.getNode(hash)
  const sink: NodeSink = (hash, encoded) => trieDb.putNode(hash, encoded)

  sm.flush = async () => {
    const caches = internals._caches
    if (caches === undefined) throw new Error('the state manager must have caches')

    for (const [addressHex, elem] of caches.code?.flush() ?? []) {
      if (elem.code === undefined) continue
      const address = createAddressFromString(`0x${addressHex}`)
      const codeHash = keccak256(elem.code)
      await internals._trie.database().put(internals._prefixCodeHashes ? concatBytes(CODEHASH_PREFIX, codeHash) : codeHash, elem.code)
      if ((await sm.getAccount(address)) === undefined) await sm.putAccount(address, new Account())
      await sm.modifyAccountFields(address, { codeHash })
    }

    const slotsByAddress = new Map<string, [string, Uint8Array | undefined][]>()
    for (const [addressHex, slotHex, value] of caches.storage?.flush() ?? []) {
      let slots = slotsByAddress.get(addressHex)
      if (slots === undefined) slotsByAddress.set(addressHex, (slots = []))
      slots.push([slotHex, value])
    }
    for (const [addressHex, slots] of slotsByAddress) {
      const address = createAddressFromString(`0x${addressHex}`)
      const account = await sm.getAccount(address)
      if (account === undefined) continue
      const trie = new TrieBatch(account.storageRoot, load)
      for (const [slotHex, value] of slots) {
        const key = keccak256(hexToBytes(`0x${slotHex}`))
        const decoded = RLP.decode(value ?? NO_BYTES) as Uint8Array
        if (decoded.length === 0) trie.del(key)
        else trie.put(key, RLP.encode(decoded))
      }
      account.storageRoot = trie.commit(sink)
      // A storage trie the state manager keeps for reads must follow, as it did when the puts went through it.
      internals._storageTries[bytesToHex(keccak256(address.bytes)).slice(2)]?.root(account.storageRoot)
      await sm.putAccount(address, account)
    }

    const accounts = caches.account?.flush() ?? []
    if (accounts.length === 0) return
    const trie = new TrieBatch(internals._trie.root(), load)
    for (const [addressHex, elem] of accounts) {
      const key = keccak256(hexToBytes(`0x${addressHex}`))
      if (elem.accountRLP === undefined) trie.del(key)
      else trie.put(key, elem.accountRLP)
    }
    internals._trie.root(trie.commit(sink))
  }
}

/** Where the state trie's nodes live (store/trieDb.ts's OverlayTrieDB), by hash. */
export interface NodeStore {
  getNode(hash: Uint8Array): Uint8Array | undefined
  putNode(hash: Uint8Array, encoded: Uint8Array): void
}
