import type { BatchDBOp, DB, EncodingOpts } from '@ethereumjs/util'
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
    const v = this.pending.get(key)
    if (v !== undefined) return v
    if (this.parent !== undefined) return this.parent.getSync(key)
    return this.store.getTrieNode(Buffer.from(key, 'hex'))
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
