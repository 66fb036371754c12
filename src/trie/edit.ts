import { equalBytes } from '../util/hex.js'
import { commonPrefix, concatNibbles } from './nibbles.js'
import { BRANCH, EXT, HASH, LEAF, type TrieNode, branch, extension, leaf } from './node.js'

// Reads and copy-on-write edits of a trie whose keys all have the same length (state and storage tries: 32-byte
// hashes), so no key is a prefix of another and values only sit in leaves. Edits hash nothing: hashing waits for
// the root to be asked for (node.ts hashNode), once per changed node however many keys went through it.

/** Makes a HASH node into the node it names (reading the store); a no-op on any other node. */
export type Resolve = (n: TrieNode) => void

export function lookup(root: TrieNode | null, key: Uint8Array, resolve: Resolve): Uint8Array | null {
  let n = root
  let pos = 0
  while (n !== null) {
    if (n.kind === HASH) resolve(n)
    if (n.kind === LEAF) return commonPrefix(n.path, key, pos) === n.path.length && pos + n.path.length === key.length ? n.value : null
    if (n.kind === EXT) {
      if (commonPrefix(n.path, key, pos) !== n.path.length) return null
      pos += n.path.length
      n = n.child
    } else {
      if (pos === key.length) return n.value
      n = n.children![key[pos++]!]!
    }
  }
  return null
}

export function insert(n: TrieNode | null, key: Uint8Array, pos: number, value: Uint8Array, resolve: Resolve): TrieNode {
  if (n === null) return leaf(key.subarray(pos), value)
  if (n.kind === HASH) resolve(n)
  if (n.kind === BRANCH) {
    const children = n.children!.slice()
    const i = key[pos]!
    children[i] = insert(children[i]!, key, pos + 1, value, resolve)
    return branch(children, n.value)
  }
  const p = commonPrefix(n.path, key, pos)
  if (n.kind === LEAF && p === n.path.length) {
    return equalBytes(n.value!, value) ? n : leaf(n.path, value)
  }
  if (n.kind === EXT && p === n.path.length) return extension(n.path, insert(n.child, key, pos + p, value, resolve))
  // The paths part at nibble p: a branch there, holding what this node held and the new leaf.
  const children = new Array<TrieNode | null>(16).fill(null)
  const rest = n.path.subarray(p + 1)
  children[n.path[p]!] = n.kind === LEAF ? leaf(rest, n.value!) : rest.length === 0 ? n.child : extension(rest, n.child!)
  children[key[pos + p]!] = leaf(key.subarray(pos + p + 1), value)
  const fork = branch(children, null)
  return p === 0 ? fork : extension(n.path.subarray(0, p), fork)
}

/** The node without `key`; the same node when it does not hold the key. */
export function remove(n: TrieNode | null, key: Uint8Array, pos: number, resolve: Resolve): TrieNode | null {
  if (n === null) return null
  if (n.kind === HASH) resolve(n)
  if (n.kind === LEAF) return commonPrefix(n.path, key, pos) === n.path.length && pos + n.path.length === key.length ? null : n
  if (n.kind === EXT) {
    if (commonPrefix(n.path, key, pos) !== n.path.length) return n
    const child = remove(n.child, key, pos + n.path.length, resolve)
    if (child === n.child) return n
    // An extension's child is a branch of two or more; without one of them it may have become a leaf or extension.
    return child === null ? null : prefixed(n.path, child, resolve)
  }
  const i = key[pos]!
  const old = n.children![i]!
  const child = remove(old, key, pos + 1, resolve)
  if (child === old) return n
  const children = n.children!.slice()
  children[i] = child
  let only = -1
  for (let j = 0; j < 16; j++) {
    if (children[j] === null) continue
    if (only !== -1 || n.value !== null) return branch(children, n.value)
    only = j
  }
  // One child left and no value: the branch folds into its child, one nibble longer.
  if (only === -1) return n.value === null ? null : leaf(new Uint8Array(0), n.value)
  return prefixed(Uint8Array.of(only), children[only]!, resolve)
}

/** `child` reached through `path` first: extensions and leaves absorb the path, a branch gets an extension. */
function prefixed(path: Uint8Array, child: TrieNode, resolve: Resolve): TrieNode {
  if (child.kind === HASH) resolve(child)
  if (child.kind === LEAF) return leaf(concatNibbles(path, child.path), child.value!)
  if (child.kind === EXT) return extension(concatNibbles(path, child.path), child.child!)
  return extension(path, child)
}
