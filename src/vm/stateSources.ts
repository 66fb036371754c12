import type { Database } from 'lmdb'
import { keccak256 } from '../crypto/keccak.js'
import type { AccountData, StateSource } from '../evm/state.js'
import { writeWord } from '../evm/words.js'
import type { ChainStore } from '../store/chainStore.js'
import { flatHeadIsAt } from '../store/flatState.js'
import { trieGet } from '../trie/trieRead.js'
import { decodeAccount, decodeSlot, EMPTY_TRIE_ROOT, isEmptyTrie, type StoredAccount } from './accountCodec.js'
import type { CodeCache } from './codeCache.js'

// The EVM's state sources over the store: the flat table (one LMDB read per account or slot, no trie walk) when it
// holds the state asked for — the canonical head's, as a rule — and the tries for any other stored state. Both are
// synchronous: LMDB reads are, and the interpreter never waits. A source is made for one synchronous stretch of
// execution (a call, an estimate's runs, a block): LMDB's read snapshot does not move within one, so the flat table
// checked at the start still holds that state at the end.

type Db = Database<Uint8Array, Uint8Array>

/** The 20 bytes of an address word, written into a reused key. */
function addressInto(address: bigint, word: Uint8Array): Uint8Array {
  writeWord(word, 0, address)
  return word.subarray(12)
}

/** A stored state as the EVM reads it, and the storage root of each account (where its storage trie starts). */
export interface StoredStateSource extends StateSource {
  storageRoot(address: bigint): Uint8Array
}

/** The state the flat table holds, read from LMDB. */
export class FlatStateSource implements StoredStateSource {
  private readonly word = new Uint8Array(32)
  private readonly slotKey = new Uint8Array(52)

  constructor(
    private readonly accounts: Db,
    private readonly storageDb: Db,
    private readonly codes: CodeCache,
  ) {}

  account(address: bigint): AccountData | undefined {
    return this.stored(address)
  }

  private stored(address: bigint): StoredAccount | undefined {
    // A view of LMDB's read buffer: decoded (and the hashes copied) before the next read reuses it.
    const rlp = this.accounts.getBinaryFast(addressInto(address, this.word))
    return rlp === undefined ? undefined : decodeAccount(rlp)
  }

  code(codeHash: Uint8Array): Uint8Array {
    return this.codes.get(codeHash)
  }

  storage(address: bigint, slot: bigint): bigint {
    this.slotKey.set(addressInto(address, this.word), 0)
    writeWord(this.word, 0, slot)
    this.slotKey.set(keccak256(this.word), 20)
    const rlp = this.storageDb.getBinaryFast(this.slotKey)
    return rlp === undefined ? 0n : decodeSlot(rlp)
  }

  hasStorage(address: bigint): boolean {
    const a = this.stored(address)
    return a !== undefined && !isEmptyTrie(a.storageRoot)
  }

  storageRoot(address: bigint): Uint8Array {
    return this.stored(address)?.storageRoot ?? EMPTY_TRIE_ROOT
  }
}

/** Any stored state, by walking its tries from the root. */
export class TrieStateSource implements StoredStateSource {
  private readonly word = new Uint8Array(32)
  /** Each account's storage root, as read: its slots are read from that trie. */
  private readonly storageRoots = new Map<bigint, Uint8Array>()
  private readonly load: (hash: Uint8Array) => Uint8Array | undefined

  constructor(
    private readonly stateRoot: Uint8Array,
    store: Pick<ChainStore, 'trieNodeView'>,
    private readonly codes: CodeCache,
  ) {
    // Views of LMDB's buffer: each value is decoded before the next read.
    this.load = (hash) => store.trieNodeView(hash)
  }

  account(address: bigint): AccountData | undefined {
    return this.stored(address)
  }

  private stored(address: bigint): StoredAccount | undefined {
    const rlp = trieGet(this.stateRoot, keccak256(addressInto(address, this.word)), this.load)
    const a = rlp === undefined ? undefined : decodeAccount(rlp)
    if (a !== undefined) this.storageRoots.set(address, a.storageRoot)
    return a
  }

  code(codeHash: Uint8Array): Uint8Array {
    return this.codes.get(codeHash)
  }

  storage(address: bigint, slot: bigint): bigint {
    const root = this.storageRoots.get(address) ?? this.stored(address)?.storageRoot
    if (root === undefined || isEmptyTrie(root)) return 0n
    writeWord(this.word, 0, slot)
    const rlp = trieGet(root, keccak256(this.word), this.load)
    return rlp === undefined ? 0n : decodeSlot(rlp)
  }

  hasStorage(address: bigint): boolean {
    const root = this.storageRoots.get(address) ?? this.stored(address)?.storageRoot
    return root !== undefined && !isEmptyTrie(root)
  }

  storageRoot(address: bigint): Uint8Array {
    return this.storageRoots.get(address) ?? this.stored(address)?.storageRoot ?? EMPTY_TRIE_ROOT
  }
}

/** Where the EVM reads the state with this root: the flat table when it holds it, else the tries. */
export function stateSourceAt(store: ChainStore, stateRoot: Uint8Array, codes: CodeCache): StoredStateSource {
  if (flatHeadIsAt(store.db('meta'), stateRoot)) return new FlatStateSource(store.db('flatAccounts'), store.db('flatStorage'), codes)
  return new TrieStateSource(stateRoot, store, codes)
}
