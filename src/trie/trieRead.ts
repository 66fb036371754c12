import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_RLP } from '@ethereumjs/util'
import { equalBytes } from '../util/hex.js'
import { MissingTrieNodeError, type NodeLoader } from './trieBatch.js'

// A value read out of a stored Merkle-Patricia trie by walking it from the root, synchronously (LMDB's reads are):
// what the EVM's state sources read older states with, and what eth_getProof collects its proofs from. Keys are the
// trie's own keys (already hashed for a secure trie).

type Raw = Uint8Array | Raw[]

/**
 * The value stored under `key` in the trie with root `root` (undefined when absent). With `proof`, every node the walk
 * read is appended to it, in order from the root: EIP-1186's proof (a node inlined in its parent is not a proof
 * entry: its parent holds it). Throws MissingTrieNodeError when the store lacks a node the trie references.
 */
export function trieGet(root: Uint8Array, key: Uint8Array, load: NodeLoader, proof?: Uint8Array[]): Uint8Array | undefined {
  if (equalBytes(root, KECCAK256_RLP)) return undefined
  let node = loadNode(root, load, proof)
  // The key's nibbles, read in place: nibble i is the high or low half of byte i >> 1.
  const nibbles = key.length * 2
  let at = 0
  for (;;) {
    if (node.length === 17) {
      if (at === nibbles) return nonEmpty(node[16] as Uint8Array)
      const child = node[nibbleAt(key, at)]!
      at++
      const next = follow(child, load, proof)
      if (next === undefined) return undefined
      node = next
      continue
    }
    if (node.length !== 2) throw new Error(`trie node with ${node.length} items`)
    const path = node[0] as Uint8Array
    const flag = path[0]! >> 4
    const leaf = (flag & 2) !== 0
    // The path's nibbles after the flag nibble (and the odd nibble that shares its byte).
    let i = (flag & 1) === 1 ? 1 : 2
    const end = path.length * 2
    for (; i < end; i++, at++) {
      if (at >= nibbles) return undefined
      const n = (i & 1) === 0 ? path[i >> 1]! >> 4 : path[i >> 1]! & 15
      if (n !== nibbleAt(key, at)) return undefined
    }
    if (leaf) return at === nibbles ? nonEmpty(node[1] as Uint8Array) : undefined
    const next = follow(node[1]!, load, proof)
    if (next === undefined) return undefined
    node = next
  }
}

function nibbleAt(key: Uint8Array, i: number): number {
  const b = key[i >> 1]!
  return (i & 1) === 0 ? b >> 4 : b & 15
}

function nonEmpty(v: Uint8Array): Uint8Array | undefined {
  return v.length === 0 ? undefined : v
}

/** A child reference: a 32-byte hash to load, an inline node (already decoded), or empty. */
function follow(ref: Raw, load: NodeLoader, proof: Uint8Array[] | undefined): Raw[] | undefined {
  if (Array.isArray(ref)) return ref
  if (ref.length === 0) return undefined
  if (ref.length === 32) return loadNode(ref, load, proof)
  throw new Error(`trie reference of ${ref.length} bytes`)
}

function loadNode(hash: Uint8Array, load: NodeLoader, proof: Uint8Array[] | undefined): Raw[] {
  const encoded = load(hash)
  if (encoded === undefined) throw new MissingTrieNodeError(`trie node ${Buffer.from(hash).toString('hex')} missing from the store`)
  proof?.push(encoded)
  return RLP.decode(encoded) as Raw[]
}
