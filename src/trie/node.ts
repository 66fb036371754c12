import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../crypto/keccak.js'
import { fromHexPrefix, hexPrefix } from './nibbles.js'

export const HASH = 0
export const LEAF = 1
export const EXT = 2
export const BRANCH = 3

type Raw = Uint8Array | Raw[]

/**
 * A Merkle Patricia trie node. One shape for every kind keeps the code that walks nodes monomorphic. A HASH node is
 * a reference not yet read from the store; `resolve` turns it into the node it names, in place — which is safe to
 * share, as the content behind a hash never changes. Every other change makes a new node (copy on write), so a
 * node reachable from an old root stays valid after a newer root is computed from it.
 */
export class TrieNode {
  kind: number
  /** Leaf and extension: the nibbles this node consumes. */
  path: Uint8Array
  /** Leaf: its value; branch: the value of a key ending here (never, in tries of fixed-length keys). */
  value: Uint8Array | null
  /** Extension: the node below. */
  child: TrieNode | null
  /** Branch: one slot per nibble. */
  children: (TrieNode | null)[] | null
  /** Known when the node was read by hash or has been hashed. */
  hash: Uint8Array | null
  /** The node's RLP, once known; a node without it is new and not yet stored. */
  enc: Uint8Array | null

  constructor(kind: number) {
    this.kind = kind
    this.path = EMPTY
    this.value = null
    this.child = null
    this.children = null
    this.hash = null
    this.enc = null
  }
}

const EMPTY = new Uint8Array(0)

export function hashRef(hash: Uint8Array): TrieNode {
  const n = new TrieNode(HASH)
  n.hash = hash
  return n
}

export function leaf(path: Uint8Array, value: Uint8Array): TrieNode {
  const n = new TrieNode(LEAF)
  n.path = path
  n.value = value
  return n
}

export function extension(path: Uint8Array, child: TrieNode): TrieNode {
  const n = new TrieNode(EXT)
  n.path = path
  n.child = child
  return n
}

export function branch(children: (TrieNode | null)[], value: Uint8Array | null): TrieNode {
  const n = new TrieNode(BRANCH)
  n.children = children
  n.value = value
  return n
}

/** Fills a HASH node with the node stored under its hash. */
export function resolveInto(n: TrieNode, stored: Uint8Array): void {
  fromRaw(n, RLP.decode(stored) as Raw[])
  n.enc = stored
}

function fromRaw(n: TrieNode, raw: Raw[]): void {
  if (raw.length === 17) {
    n.kind = BRANCH
    const children = new Array<TrieNode | null>(16)
    for (let i = 0; i < 16; i++) children[i] = childFromRaw(raw[i]!)
    n.children = children
    const v = raw[16] as Uint8Array
    n.value = v.length === 0 ? null : v
    return
  }
  if (raw.length !== 2) throw new Error(`invalid trie node: a list of ${raw.length} items`)
  const { path, leaf: isLeaf } = fromHexPrefix(raw[0] as Uint8Array)
  n.path = path
  if (isLeaf) {
    n.kind = LEAF
    n.value = raw[1] as Uint8Array
  } else {
    n.kind = EXT
    n.child = childFromRaw(raw[1]!)
  }
}

function childFromRaw(item: Raw): TrieNode | null {
  if (item instanceof Uint8Array) {
    if (item.length === 0) return null
    if (item.length === 32) return hashRef(item)
    throw new Error(`invalid trie node reference of ${item.length} bytes`)
  }
  // A node under 32 bytes is embedded in its parent rather than stored by hash.
  const n = new TrieNode(HASH)
  fromRaw(n, item)
  n.enc = RLP.encode(item)
  return n
}

/** Receives every node that must be stored: its hash and RLP. */
export type NodeSink = (hash: Uint8Array, enc: Uint8Array) => void

const EMPTY_STRING_RLP = Uint8Array.of(0x80)

/**
 * The RLP of a node, computed once: new children are encoded (and, when 32 bytes or more, hashed and handed to
 * `sink`) on the way, nodes read from the store are not touched.
 */
export function encodeNode(n: TrieNode, sink: NodeSink): Uint8Array {
  if (n.enc !== null) return n.enc
  const parts: Uint8Array[] = []
  if (n.kind === LEAF) {
    parts.push(rlpBytes(hexPrefix(n.path, 0, n.path.length, true)), rlpBytes(n.value!))
  } else if (n.kind === EXT) {
    parts.push(rlpBytes(hexPrefix(n.path, 0, n.path.length, false)), childRef(n.child!, sink))
  } else if (n.kind === BRANCH) {
    const children = n.children!
    for (let i = 0; i < 16; i++) {
      const c = children[i]!
      parts.push(c === null ? EMPTY_STRING_RLP : childRef(c, sink))
    }
    parts.push(n.value === null ? EMPTY_STRING_RLP : rlpBytes(n.value))
  } else {
    throw new Error('a hash reference has no encoding of its own')
  }
  n.enc = rlpList(parts)
  return n.enc
}

/**
 * The node's hash, storing the node through `sink` the first time it is hashed: a node read by its hash already has
 * one, so a node without is new — or was embedded in its parent until now and has become a root, which is stored
 * whatever its size.
 */
export function hashNode(n: TrieNode, sink: NodeSink): Uint8Array {
  if (n.hash !== null) return n.hash
  const enc = encodeNode(n, sink)
  n.hash = keccak256(enc)
  sink(n.hash, enc)
  return n.hash
}

function childRef(c: TrieNode, sink: NodeSink): Uint8Array {
  if (c.kind === HASH) return rlpBytes(c.hash!)
  const enc = encodeNode(c, sink)
  return enc.length < 32 ? enc : rlpBytes(hashNode(c, sink))
}

function rlpBytes(b: Uint8Array): Uint8Array {
  if (b.length === 1 && b[0]! < 0x80) return b
  const head = lengthPrefix(0x80, b.length)
  const out = new Uint8Array(head.length + b.length)
  out.set(head)
  out.set(b, head.length)
  return out
}

function rlpList(items: Uint8Array[]): Uint8Array {
  let total = 0
  for (const it of items) total += it.length
  const head = lengthPrefix(0xc0, total)
  const out = new Uint8Array(head.length + total)
  out.set(head)
  let at = head.length
  for (const it of items) {
    out.set(it, at)
    at += it.length
  }
  return out
}

function lengthPrefix(base: number, len: number): Uint8Array {
  if (len < 56) return Uint8Array.of(base + len)
  const bytes: number[] = []
  for (let l = len; l > 0; l = Math.floor(l / 256)) bytes.unshift(l & 255)
  return Uint8Array.of(base + 55 + bytes.length, ...bytes)
}
