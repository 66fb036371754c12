import type { Common } from '@ethereumjs/common'
import { MerklePatriciaTrie, type MPTOpts, type TrieShallowCopyOpts } from '@ethereumjs/mpt'
import { ValueEncoding } from '@ethereumjs/util'
import type { OverlayTrieDB } from '../store/trieDb.js'
import { equalBytes, unprefixedHex } from '../util/hex.js'
import { insert, lookup, remove } from './edit.js'
import { nibblesOf } from './nibbles.js'
import { type TrieNode, hashNode, hashRef, resolveInto } from './node.js'

interface Write {
  path: Uint8Array
  value: Uint8Array | null
}

/**
 * Decoded nodes kept between roots (~700 bytes each, measured); past this, the cache starts again from the next root
 * set. Most of the gain is within a block; across blocks the top levels are what is re-read, and a larger bound
 * showed in the memory soak (anonymous RSS +70% with 40,000, a trie per executor and state reader in each worker).
 */
const MAX_CACHED_NODES = 10_000
/** Roots whose decoded trees are kept: the head, and the blocks built or imported on it. */
const RECENT_ROOTS = 4

/**
 * EthereumJS's trie, with reads and writes of 32-byte hashed keys done by src/trie instead. EthereumJS re-reads,
 * re-decodes, re-encodes and re-hashes every node on the path of each key it writes, and MerkleStateManager writes
 * the state of a whole block key by key at its end (3,400 account writes in a block of transfers). Here writes wait
 * until the root is asked for and are then applied to one decoded tree, each changed node encoded and hashed once;
 * reads walk decoded nodes kept across blocks instead of decoding each node from the store per key.
 *
 * Anything else — checkpoints (MerkleStateManager writes under none: its caches hold a block's changes), proofs,
 * iteration, keys not hashed to 32 bytes — is EthereumJS's own code over the same store, after pending writes are
 * applied.
 */
export class StateTrie extends MerklePatriciaTrie {
  private readonly pending = new Map<string, Write>()
  private readonly recent = new Map<string, TrieNode | null>()
  private tree: TrieNode | null = null
  private treeRoot: Uint8Array | null = null
  private cachedNodes = 0

  constructor(
    private readonly nodes: OverlayTrieDB,
    opts: MPTOpts,
  ) {
    super({ ...opts, db: nodes })
  }

  static create(nodes: OverlayTrieDB, common: Common): StateTrie {
    return new StateTrie(nodes, { useKeyHashing: true, valueEncoding: ValueEncoding.Bytes, common })
  }

  override async get(key: Uint8Array, throwIfMissing = false): Promise<Uint8Array | null> {
    if (this.hasCheckpoints()) return super.get(key, throwIfMissing)
    const hashed = this.appliedKey(key)
    if (hashed.length !== 32) return super.get(key, throwIfMissing)
    if (this.pending.size > 0) {
      const w = this.pending.get(unprefixedHex(hashed))
      if (w !== undefined) return w.value
    }
    return lookup(this.current(), nibblesOf(hashed), this.resolve)
  }

  override async put(key: Uint8Array, value: Uint8Array | null, skipKeyTransform = false): Promise<void> {
    if (!this.queue(key, value === null || value.length === 0 ? null : value, skipKeyTransform)) {
      return super.put(key, value, skipKeyTransform)
    }
  }

  override async del(key: Uint8Array, skipKeyTransform = false): Promise<void> {
    if (!this.queue(key, null, skipKeyTransform)) return super.del(key, skipKeyTransform)
  }

  override root(value?: Uint8Array | null): Uint8Array {
    // The base constructor sets the root before this class's fields exist.
    if (this.pending === undefined) return super.root(value)
    if (value !== undefined) {
      // Writes queued against the old root go with it, as they would have in EthereumJS.
      this.pending.clear()
      if (this.cachedNodes > MAX_CACHED_NODES) {
        this.recent.clear()
        this.treeRoot = null
        this.tree = null
        this.cachedNodes = 0
      }
      return super.root(value)
    }
    if (this.pending.size > 0) this.applyPending()
    return super.root()
  }

  override shallowCopy(includeCheckpoints = true, opts?: TrieShallowCopyOpts): MerklePatriciaTrie {
    if (opts?.keyPrefix !== undefined) return super.shallowCopy(includeCheckpoints, opts)
    const copy = new StateTrie(this.nodes, { ...this._opts, root: this.root(), cacheSize: 0, ...opts })
    if (includeCheckpoints && this.hasCheckpoints()) copy._db.setCheckpoints(this._db.checkpoints)
    return copy
  }

  /** Queues a write; false when it must go through EthereumJS instead. */
  private queue(key: Uint8Array, value: Uint8Array | null, skipKeyTransform: boolean): boolean {
    if (skipKeyTransform || this.hasCheckpoints()) {
      if (this.pending.size > 0) this.applyPending()
      return false
    }
    const hashed = this.appliedKey(key)
    if (hashed.length !== 32) return false
    this.pending.set(unprefixedHex(hashed), { path: nibblesOf(hashed), value })
    return true
  }

  private applyPending(): void {
    let tree = this.current()
    for (const w of this.pending.values()) {
      tree = w.value === null ? remove(tree, w.path, 0, this.resolve) : insert(tree, w.path, 0, w.value, this.resolve)
    }
    this.pending.clear()
    const root = tree === null ? this.EMPTY_TRIE_ROOT : hashNode(tree, this.store)
    super.root(root)
    this.tree = tree
    this.treeRoot = root
    this.recent.set(unprefixedHex(root), tree)
    if (this.recent.size > RECENT_ROOTS) this.recent.delete(this.recent.keys().next().value!)
  }

  /** The decoded tree of the current root: kept from a recent root, else read from the store as needed. */
  private current(): TrieNode | null {
    const root = super.root()
    if (this.treeRoot !== null && (root === this.treeRoot || equalBytes(root, this.treeRoot))) return this.tree
    const known = this.recent.get(unprefixedHex(root))
    this.tree = known !== undefined ? known : equalBytes(root, this.EMPTY_TRIE_ROOT) ? null : hashRef(root)
    this.treeRoot = root
    return this.tree
  }

  private readonly resolve = (n: TrieNode): void => {
    const stored = this.nodes.getNode(n.hash!)
    // EthereumJS's wording, which its callers (checkRoot) recognise.
    if (stored === undefined) throw new Error('Missing node in DB')
    resolveInto(n, stored)
    this.cachedNodes++
  }

  private readonly store = (hash: Uint8Array, enc: Uint8Array): void => {
    this.nodes.putNode(hash, enc)
    this.cachedNodes++
  }
}
