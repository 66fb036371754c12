import type { Block } from '@ethereumjs/block'
import type { MerklePatriciaTrie } from '@ethereumjs/mpt'
import type { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Address } from '@ethereumjs/util'
import type { BlockBuilder, RunTxResult } from '@ethereumjs/vm'

// Every reach into EthereumJS's protected and private members, typed once (EthereumJS 10.1.3, pinned in
// package.json). An upgrade that renames or reshapes one of them changes this file; ethereumjsInternals.test.ts
// checks each against the installed version. Nothing else casts an EthereumJS object to reach inside it.

/** MerkleStateManager's protected members that the flat reads, the batched commit and the change recorder drive. */
export interface StateManagerInternals {
  _caches?: Caches
  _trie: MerklePatriciaTrie
  _storageTries: Record<string, MerklePatriciaTrie | undefined>
  readonly _prefixCodeHashes: boolean
  _getStorageTrie(addressOrHash: Address | Uint8Array, rootAccount?: { storageRoot: Uint8Array }): MerklePatriciaTrie
}

export function stateManagerInternals(sm: MerkleStateManager): StateManagerInternals {
  return sm as unknown as StateManagerInternals
}

/** The state manager's caches, which Sponge's state adapters require (a VM made without them is a bug). */
export function stateCaches(sm: MerkleStateManager): Caches {
  const caches = stateManagerInternals(sm)._caches
  if (caches?.account === undefined || caches.storage === undefined) throw new Error('the state manager must have caches')
  return caches
}

/**
 * Where SSTORE's gas reads original values from: OriginalStorageCache keeps the getStorage it was made with (bound
 * before any wrapper of the state manager's), privately.
 */
export function setOriginalStorageReader(sm: MerkleStateManager, read: MerkleStateManager['getStorage']): void {
  ;(sm.originalStorageCache as unknown as { getStorage: MerkleStateManager['getStorage'] }).getStorage = read
}

/** BlockBuilder's state, which the builder's own appendTransaction advances in its place. */
export interface BlockBuilderInternals {
  vm: BlockBuilder['vm']
  transactions: TypedTransaction[]
  transactionResults: RunTxResult[]
  gasUsed: bigint
  blobGasUsed: bigint
  _minerValue: bigint
  checkpointed: boolean
  /** The roots build() asks for: replaced by callers that compute them faster or from other data. */
  transactionsTrie(): Promise<Uint8Array>
  receiptTrie(): Promise<Uint8Array>
}

export function blockBuilderInternals(builder: BlockBuilder): BlockBuilderInternals {
  return builder as unknown as BlockBuilderInternals
}

/** A Block's memo of its transactions and withdrawals roots, which its validation reads before computing them. */
export function blockRootCache(block: Block): { txTrieRoot?: Uint8Array; withdrawalsTrieRoot?: Uint8Array } {
  return (block as unknown as { cache: { txTrieRoot?: Uint8Array; withdrawalsTrieRoot?: Uint8Array } }).cache
}
