import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import { ValueEncoding } from '@ethereumjs/util'
import { type VM, createVM } from '@ethereumjs/vm'
import type { ChainSpec } from '../chain/spec.js'
import type { ChainStore } from '../store/chainStore.js'
import { OverlayTrieDB } from '../trie/trieDb.js'
import { AncestorView } from '../vm/ancestors.js'
import { installFlatReads } from '../state/flatReads.js'
import { installBatchedCommit } from '../state/stateCommit.js'
import { enforceCheckedSystemCalls } from './systemCalls.js'

/** An EthereumJS VM over the store's state: its own trie view (writes kept in `trieDb.pending`), caches, ancestors. */
export interface StoreVm {
  trieDb: OverlayTrieDB
  state: MerkleStateManager
  vm: VM
  ancestors: AncestorView
}

/**
 * One per use per thread (block execution, calls, traces): each re-roots its state manager as it needs. The
 * account/storage/code caches mean a block reads an account once, and its writes reach the trie once, at the end.
 */
export async function createStoreVm(spec: ChainSpec, store: ChainStore): Promise<StoreVm> {
  const trieDb = new OverlayTrieDB(store)
  const common = spec.common.copy()
  const trie = new MerklePatriciaTrie({ db: trieDb, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common })
  const state = new MerkleStateManager({ trie, common, caches: new Caches() })
  installFlatReads(state, store)
  installBatchedCommit(state, trieDb)
  const ancestors = new AncestorView(store, new Uint8Array(32), 0n)
  const vm = await createVM({ common, stateManager: state, blockchain: ancestors as never, setHardfork: true })
  // Failing EIP-7002/7251 system calls make a block invalid (EthereumJS would accept it); calls never make them.
  enforceCheckedSystemCalls(vm)
  return { trieDb, state, vm, ancestors }
}
