import { KECCAK256_RLP } from '@ethereumjs/util'
import { equalBytes } from '../util/hex.js'
import { rlpEnd, rlpStart, rlpStringAt } from '../util/rlpString.js'
import { MissingTrieNodeError, type NodeLoader } from './trieBatch.js'

// A value read out of a stored Merkle-Patricia trie by walking it from the root, synchronously (LMDB's reads are):
// what the EVM's state sources read older states with, and what eth_getProof collects its proofs from. Keys are the
// trie's own keys (already hashed for a secure trie). Nodes are read in place, as RLP, never decoded whole: a branch
// is sixteen children and a value of which the walk needs one (decoding every item was most of a trace's time).

/**
 * The value stored under `key` in the trie with root `root` (undefined when absent). With `proof`, every node the walk
 * read is appended to it, in order from the root: EIP-1186's proof (a node inlined in its parent is not a proof
 * entry: its parent holds it). Throws MissingTrieNodeError when the store lacks a node the trie references. `load`
 * may hand out a transient view of each node (valid until it is asked for the next): the value returned is then a
 * view of the last node too, to read before anything else reads the store; proof entries are copies.
 */
export function trieGet(root: Uint8Array, key: Uint8Array, load: NodeLoader, proof?: Uint8Array[]): Uint8Array | undefined {
  if (equalBytes(root, KECCAK256_RLP)) return undefined
  let b = loadNode(root, load, proof)
  // The node being read: the list at `at` in `b` (an inline child is a list inside its parent's bytes).
  let at = 0
  const nibbles = key.length * 2
  let depth = 0
  for (;;) {
    const first = listStart(b, at)
    const second = skip(b, first)
    const end = listEnd
    const branch = skip(b, second) !== end
    let child: number
    if (branch) {
      if (depth === nibbles) return nonEmpty(b, itemAt(b, first, 16))
      child = itemAt(b, first, nibbleAt(key, depth))
      depth++
    } else {
      rlpStringAt(b, first, WHAT)
      const ps = rlpStart
      const pe = rlpEnd
      const flag = b[ps]! >> 4
      // The path's nibbles after the flag nibble (and the odd nibble that shares its byte).
      let i = (flag & 1) === 1 ? 1 : 2
      const last = (pe - ps) * 2
      for (; i < last; i++, depth++) {
        if (depth >= nibbles) return undefined
        const n = (i & 1) === 0 ? b[ps + (i >> 1)]! >> 4 : b[ps + (i >> 1)]! & 15
        if (n !== nibbleAt(key, depth)) return undefined
      }
      if ((flag & 2) !== 0) return depth === nibbles ? nonEmpty(b, second) : undefined
      child = second
    }
    // A child: a hash to load, an inline node (a list here), or nothing.
    if (b[child]! >= 0xc0) {
      at = child
      continue
    }
    rlpStringAt(b, child, WHAT)
    const len = rlpEnd - rlpStart
    if (len === 0) return undefined
    if (len !== 32) throw new Error(`trie reference of ${len} bytes`)
    b = loadNode(b.subarray(rlpStart, rlpEnd), load, proof)
    at = 0
  }
}

function nibbleAt(key: Uint8Array, i: number): number {
  const b = key[i >> 1]!
  return (i & 1) === 0 ? b >> 4 : b & 15
}

function loadNode(hash: Uint8Array, load: NodeLoader, proof: Uint8Array[] | undefined): Uint8Array {
  const encoded = load(hash)
  if (encoded === undefined) throw new MissingTrieNodeError(`trie node ${Buffer.from(hash).toString('hex')} missing from the store`)
  if (proof !== undefined) {
    listStart(encoded, 0)
    proof.push(Uint8Array.prototype.slice.call(encoded, 0, listEnd))
  }
  return encoded
}

// --- RLP in place (strings: util/rlpString.ts). Module state, no object per item: the last list's end.

/** What a malformed node is called in its error. */
const WHAT = 'trie node'
let listEnd = 0

/** The list at `at`: where its first item starts; its end goes to listEnd. */
function listStart(b: Uint8Array, at: number): number {
  const p = b[at]!
  if (p < 0xc0) throw new Error('trie node is not a list')
  if (p <= 0xf7) {
    listEnd = at + 1 + p - 0xc0
    return at + 1
  }
  const n = p - 0xf7
  let len = 0
  for (let i = 1; i <= n; i++) len = len * 256 + b[at + i]!
  listEnd = at + 1 + n + len
  return at + 1 + n
}

/** Where the item after the one at `at` starts. */
function skip(b: Uint8Array, at: number): number {
  const p = b[at]!
  if (p < 0x80) return at + 1
  if (p <= 0xb7) return at + 1 + p - 0x80
  if (p < 0xc0 || p > 0xf7) {
    const n = p < 0xc0 ? p - 0xb7 : p - 0xf7
    let len = 0
    for (let i = 1; i <= n; i++) len = len * 256 + b[at + i]!
    return at + 1 + n + len
  }
  return at + 1 + p - 0xc0
}

/** Where item `index` of the list whose items start at `first` starts. */
function itemAt(b: Uint8Array, first: number, index: number): number {
  let at = first
  for (let i = 0; i < index; i++) at = skip(b, at)
  return at
}

/** The string at `at` as a value, undefined when empty. */
function nonEmpty(b: Uint8Array, at: number): Uint8Array | undefined {
  rlpStringAt(b, at, WHAT)
  return rlpEnd === rlpStart ? undefined : b.subarray(rlpStart, rlpEnd)
}
