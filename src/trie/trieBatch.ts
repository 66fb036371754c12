import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { concatBytes, equalBytes } from '../util/hex.js'
import type { NodeSink } from './orderedTrie.js'
import { type ChildRef, encodeBranch, encodeExtension, encodeLeaf, fromHexPrefix, hexPrefix, nibblesOf } from './trieCodec.js'

type Raw = Uint8Array | Raw[]

/** A subtree as its parent references it (a 32-byte hash, or an inline node's decoded RLP), not yet loaded. */
interface Stored {
  kind: 'stored'
  ref: Raw
}
interface Leaf {
  kind: 'leaf'
  path: Uint8Array
  value: Uint8Array
}
interface Extension {
  kind: 'extension'
  path: Uint8Array
  child: Child
}
interface Branch {
  kind: 'branch'
  children: (Child | undefined)[]
  value: Uint8Array | undefined
}
type Node = Leaf | Extension | Branch
type Child = Node | Stored

const EMPTY = new Uint8Array()

/** Reads a stored node's RLP by its hash; undefined when the store lacks it. */
export type NodeLoader = (hash: Uint8Array) => Uint8Array | undefined

export class MissingTrieNodeError extends Error {
  override readonly name = 'MissingTrieNodeError'
}

/**
 * A Merkle-Patricia trie changed by many puts and deletes and then hashed once. EthereumJS's trie re-encodes and
 * re-hashes the whole path from leaf to root, and stores every node of it, at each put: a block's thousands of
 * account and slot writes hash the upper levels thousands of times and leave as many dead nodes in the store. Here
 * a change loads the nodes on its path once (later changes find them in memory), and `commit` hashes each changed
 * node once, handing only the final nodes to the sink. Untouched subtrees stay references and are not loaded.
 * Keys are the trie's own keys (already hashed for a secure trie); the roots and nodes equal EthereumJS's.
 */
export class TrieBatch {
  private root: Child | undefined

  constructor(
    root: Uint8Array,
    private readonly load: NodeLoader,
  ) {
    this.root = equalBytes(root, KECCAK256_RLP) ? undefined : { kind: 'stored', ref: root }
  }

  put(key: Uint8Array, value: Uint8Array): void {
    if (value.length === 0) {
      this.del(key)
      return
    }
    this.root = this.insert(this.root, nibblesOf(key), 0, value)
  }

  del(key: Uint8Array): void {
    this.root = this.remove(this.root, nibblesOf(key), 0)
  }

  /** The root hash after the changes so far; every new node referenced by hash (the root too) goes to the sink. */
  commit(sink: NodeSink): Uint8Array {
    const root = this.root
    if (root === undefined) return KECCAK256_RLP
    if (root.kind === 'stored') return root.ref as Uint8Array
    const encoded = this.encode(root, sink)
    const hash = keccak256(encoded)
    sink(hash, encoded)
    this.root = { kind: 'stored', ref: hash }
    return hash
  }

  private insert(child: Child | undefined, key: Uint8Array, at: number, value: Uint8Array): Node {
    if (child === undefined) return leaf(key.subarray(at), value)
    const node = this.resolve(child)
    if (node.kind === 'branch') {
      if (at === key.length) node.value = value
      else node.children[key[at]!] = this.insert(node.children[key[at]!], key, at + 1, value)
      return node
    }
    const c = commonPrefix(node.path, key, at)
    if (node.kind === 'extension' && c === node.path.length) {
      return { kind: 'extension', path: node.path, child: this.insert(node.child, key, at + c, value) }
    }
    if (node.kind === 'leaf' && c === node.path.length && at + c === key.length) return leaf(node.path, value)
    // The paths part at c: a branch there holds what was here and the new key.
    const branch: Branch = { kind: 'branch', children: new Array<Child | undefined>(16).fill(undefined), value: undefined }
    if (node.kind === 'leaf') {
      if (c === node.path.length) branch.value = node.value
      else branch.children[node.path[c]!] = leaf(node.path.subarray(c + 1), node.value)
    } else {
      const rest = node.path.subarray(c + 1)
      branch.children[node.path[c]!] = rest.length === 0 ? node.child : { kind: 'extension', path: rest, child: node.child }
    }
    if (at + c === key.length) branch.value = value
    else branch.children[key[at + c]!] = leaf(key.subarray(at + c + 1), value)
    return c > 0 ? { kind: 'extension', path: node.path.subarray(0, c), child: branch } : branch
  }

  /** The subtree without `key`: the very `child` given when the key was not in it, so nothing is re-hashed. */
  private remove(child: Child | undefined, key: Uint8Array, at: number): Child | undefined {
    if (child === undefined) return undefined
    const node = this.resolve(child)
    if (node.kind === 'leaf') return pathEquals(node.path, key, at) ? undefined : child
    if (node.kind === 'extension') {
      if (commonPrefix(node.path, key, at) !== node.path.length) return child
      const below = this.remove(node.child, key, at + node.path.length)
      if (below === node.child) return child
      return below === undefined ? undefined : this.prefixed(node.path, below)
    }
    if (at === key.length) {
      if (node.value === undefined) return child
      node.value = undefined
    } else {
      const slot = key[at]!
      const before = node.children[slot]
      const after = this.remove(before, key, at + 1)
      if (after === before) return child
      node.children[slot] = after
    }
    return this.collapse(node)
  }

  /** A branch left with one entry is no branch: it becomes that entry, its path one nibble longer. */
  private collapse(branch: Branch): Node | undefined {
    let only = -1
    for (let i = 0; i < 16; i++) {
      if (branch.children[i] === undefined) continue
      if (only !== -1 || branch.value !== undefined) return branch
      only = i
    }
    if (only === -1) return branch.value === undefined ? undefined : leaf(EMPTY, branch.value)
    return this.prefixed(Uint8Array.of(only), branch.children[only]!)
  }

  /** `child` reached through `path`: an extension to a branch, or the child's own path lengthened. */
  private prefixed(path: Uint8Array, child: Child): Node {
    const node = this.resolve(child)
    if (node.kind === 'leaf') return leaf(concatBytes(path, node.path), node.value)
    if (node.kind === 'extension') return { kind: 'extension', path: concatBytes(path, node.path), child: node.child }
    return { kind: 'extension', path, child }
  }

  private resolve(child: Child): Node {
    if (child.kind !== 'stored') return child
    let raw = child.ref
    if (raw instanceof Uint8Array) {
      const encoded = this.load(raw)
      if (encoded === undefined) throw new MissingTrieNodeError(`missing trie node ${Buffer.from(raw).toString('hex')}`)
      raw = RLP.decode(encoded) as Raw
    }
    if (!Array.isArray(raw)) throw new MissingTrieNodeError('invalid trie node')
    if (raw.length === 17) {
      const children = new Array<Child | undefined>(16)
      for (let i = 0; i < 16; i++) {
        const r = raw[i]!
        children[i] = r instanceof Uint8Array && r.length === 0 ? undefined : { kind: 'stored', ref: r }
      }
      const value = raw[16] as Uint8Array
      return { kind: 'branch', children, value: value.length === 0 ? undefined : value }
    }
    if (raw.length !== 2 || !(raw[0] instanceof Uint8Array)) throw new MissingTrieNodeError('invalid trie node')
    const { nibbles, leaf: isLeaf } = fromHexPrefix(raw[0])
    if (isLeaf) return leaf(nibbles, raw[1] as Uint8Array)
    return { kind: 'extension', path: nibbles, child: { kind: 'stored', ref: raw[1]! } }
  }

  /** How a parent references `child`: inline when its encoding is under 32 bytes, else by hash (the node to the sink). */
  private refOf(child: Child, sink: NodeSink): ChildRef {
    if (child.kind === 'stored') return child.ref instanceof Uint8Array ? child.ref : RLP.encode(child.ref as never)
    const encoded = this.encode(child, sink)
    if (encoded.length < 32) return encoded
    const hash = keccak256(encoded)
    sink(hash, encoded)
    return hash
  }

  private encode(node: Node, sink: NodeSink): Uint8Array {
    if (node.kind === 'leaf') return encodeLeaf(hexPrefix(node.path, 0, node.path.length, true), node.value)
    if (node.kind === 'extension') return encodeExtension(hexPrefix(node.path, 0, node.path.length, false), this.refOf(node.child, sink))
    const refs = new Array<ChildRef | undefined>(16)
    for (let i = 0; i < 16; i++) {
      const c = node.children[i]
      refs[i] = c === undefined ? undefined : this.refOf(c, sink)
    }
    return encodeBranch(refs, node.value ?? EMPTY)
  }
}

const leaf = (path: Uint8Array, value: Uint8Array): Leaf => ({ kind: 'leaf', path, value })

/** How many nibbles `path` shares with key[at…]. */
function commonPrefix(path: Uint8Array, key: Uint8Array, at: number): number {
  const n = Math.min(path.length, key.length - at)
  let i = 0
  while (i < n && path[i] === key[at + i]) i++
  return i
}

const pathEquals = (path: Uint8Array, key: Uint8Array, at: number): boolean =>
  path.length === key.length - at && commonPrefix(path, key, at) === path.length
