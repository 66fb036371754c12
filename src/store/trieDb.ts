import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util'
import { unprefixedHex } from '../util/hex.js'
import type { ChainStore } from './chainStore.js'

type Value = string | Uint8Array

/**
 * The key-value store EthereumJS's trie sees: reads fall through to LMDB's `trie` database, writes collect in
 * memory until the block that produced them is stored (ChainStore.putBlockSync), so a block's state lands in the
 * same transaction as its header and receipts — or not at all. Trie nodes are content-addressed and never deleted
 * (no pruning: this is an archive store), so `del` is ignored.
 */
export class OverlayTrieDB implements DB<string, Value> {
  readonly pending = new Map<string, Uint8Array>()

  constructor(
    private readonly store: ChainStore,
    private readonly parent?: OverlayTrieDB,
  ) {}

  get(key: string, _opts?: EncodingOpts): Promise<Value | undefined> {
    return Promise.resolve(this.getSync(key))
  }

  getSync(key: string): Uint8Array | undefined {
    return this.lookup(key, Buffer.from(key, 'hex'))
  }

  /** A node by its hash, for readers that skip EthereumJS's string keys (src/trie). */
  getNode(hash: Uint8Array): Uint8Array | undefined {
    return this.lookup(unprefixedHex(hash), hash)
  }

  private lookup(hex: string, hash: Uint8Array): Uint8Array | undefined {
    const v = this.pending.get(hex)
    if (v !== undefined) return v
    if (this.parent !== undefined) return this.parent.lookup(hex, hash)
    return this.store.getTrieNode(hash)
  }

  putNode(hash: Uint8Array, node: Uint8Array): void {
    this.pending.set(unprefixedHex(hash), node)
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
