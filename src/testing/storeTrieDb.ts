import { type BatchDBOp, type DB, type EncodingOpts, KECCAK256_RLP } from '@ethereumjs/util'
import type { ChainStore } from '../store/chainStore.js'

type Value = string | Uint8Array

/** keccak256(rlp('')): EthereumJS looks the empty trie up like any other root, and finds nothing by design. */
const EMPTY_TRIE_ROOT = nodeKey(KECCAK256_RLP)

/**
 * The store as EthereumJS's trie sees it, for tests that read Sponge's stored state with EthereumJS's trie as the
 * reference: reads fall through to LMDB's `trie` database, writes collect in
 * memory until the block that produced them is stored (ChainStore.putBlockSync), so a block's state lands in the
 * same transaction as its header and receipts — or not at all. Trie nodes are content-addressed and never deleted
 * (no pruning: this is an archive store), so `del` is ignored.
 */
export class OverlayTrieDB implements DB<string, Value> {
  readonly pending = new Map<string, Uint8Array>()
  /**
   * Reads that found nothing but the empty trie. The trie asks only for nodes that a stored node references, so a
   * miss means the store lacks state it should have: an execution that failed after one is the node's fault, not the block's.
   */
  misses = 0

  constructor(
    private readonly store: ChainStore,
    private readonly parent?: OverlayTrieDB,
  ) {}

  get(key: string, _opts?: EncodingOpts): Promise<Value | undefined> {
    return Promise.resolve(this.getSync(key))
  }

  getSync(key: string): Uint8Array | undefined {
    const v = this.pending.get(key)
    if (v !== undefined) return v
    if (this.parent !== undefined) return this.parent.getSync(key)
    const stored = this.store.getTrieNode(Buffer.from(key, 'hex'))
    if (stored === undefined && key !== EMPTY_TRIE_ROOT) this.misses++
    return stored
  }

  /** A node by its hash, for Sponge's own trie code (exec/trieBatch.ts), which works in bytes. */
  getNode(hash: Uint8Array): Uint8Array | undefined {
    return this.getSync(nodeKey(hash))
  }

  putNode(hash: Uint8Array, encoded: Uint8Array): void {
    this.pending.set(nodeKey(hash), encoded)
  }

  put(key: string, val: Value, _opts?: EncodingOpts): Promise<void> {
    this.pending.set(key, typeof val === 'string' ? Buffer.from(val, 'hex') : val)
    return Promise.resolve()
  }

  del(_key: string, _opts?: EncodingOpts): Promise<void> {
    return Promise.resolve()
  }

  async batch(ops: BatchDBOp<string, Value>[]): Promise<void> {
    for (const op of ops) if (op.type === 'put') await this.put(op.key, op.value)
  }

  shallowCopy(): DB<string, Value> {
    return this
  }

  open(): Promise<void> {
    return Promise.resolve()
  }
}

/** A node's key here: its hash as unprefixed hex, as EthereumJS's trie keys its database. */
function nodeKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('hex')
}
