import { KECCAK256_RLP } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { type ChildRef, encodeBranch, encodeExtension, encodeLeaf, hexPrefix, nibblesOf } from './trieCodec.js'

/** Where the nodes referenced by hash go, keyed by that hash (as a trie database holds them); none for a root only. */
export type NodeSink = (hash: Uint8Array, encoded: Uint8Array) => void

/** How a parent holds a node (its encoding): inline when under 32 bytes, else by hash. */
function ref(encoded: Uint8Array, sink: NodeSink | undefined): ChildRef {
  if (encoded.length < 32) return encoded
  const hash = keccak256(encoded)
  sink?.(hash, encoded)
  return hash
}

/** The encoding of the node holding keys[lo, hi), all alike up to `depth` nibbles. */
function build(keys: Uint8Array[], values: Uint8Array[], lo: number, hi: number, depth: number, sink: NodeSink | undefined): Uint8Array {
  if (hi - lo === 1) return encodeLeaf(hexPrefix(keys[lo]!, depth, keys[lo]!.length, true), values[lo]!)
  // Keys are sorted: the common prefix of the range is that of its first and last keys.
  const a = keys[lo]!
  const b = keys[hi - 1]!
  let cp = depth
  while (cp < a.length && cp < b.length && a[cp] === b[cp]) cp++
  if (cp > depth) return encodeExtension(hexPrefix(a, depth, cp, false), ref(build(keys, values, lo, hi, cp, sink), sink))
  const children = new Array<ChildRef | undefined>(16)
  let value = EMPTY
  let i = lo
  if (keys[i]!.length === depth) value = values[i++]!
  while (i < hi) {
    const nib = keys[i]![depth]!
    let j = i + 1
    while (j < hi && keys[j]![depth] === nib) j++
    children[nib] = ref(build(keys, values, i, j, depth + 1, sink), sink)
    i = j
  }
  return encodeBranch(children, value)
}

const EMPTY = new Uint8Array()

function compare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/** RLP of an index (an unsigned integer: its minimal big-endian bytes, 0x80 for zero), the key of its value. */
function indexKey(i: number): Uint8Array {
  if (i === 0) return Uint8Array.of(0x80)
  if (i < 0x80) return Uint8Array.of(i)
  let n = 0
  for (let v = i; v > 0; v = Math.floor(v / 256)) n++
  const out = new Uint8Array(1 + n)
  out[0] = 0x80 + n
  for (let k = n, v = i; k > 0; k--, v = Math.floor(v / 256)) out[k] = v % 256
  return out
}

/**
 * The root of the trie that maps RLP(index) to each value — transactions, receipts and withdrawals roots — built in
 * one pass over the sorted keys (like geth's StackTrie) instead of EthereumJS's general trie, whose per-insert node
 * re-encoding dominated block import profiles.
 */
export function orderedTrieRoot(values: Uint8Array[]): Uint8Array {
  return trieRoot(
    values.map((_, i) => indexKey(i)),
    values,
  )
}

/**
 * The root of the trie mapping each key to its value (keys distinct, all of one length or RLP indexes), built in one
 * pass over the sorted keys. With a sink, every node referenced by hash — the root included — is handed to it: the
 * nodes a trie database needs to serve the trie (how genesis state is written).
 */
export function trieRoot(keys: Uint8Array[], values: Uint8Array[], sink?: NodeSink): Uint8Array {
  if (keys.length === 0) return KECCAK256_RLP
  const order = keys.map((key, i) => ({ key: nibblesOf(key), value: values[i]! }))
  order.sort((x, y) => compare(x.key, y.key))
  const root = build(
    order.map((o) => o.key),
    order.map((o) => o.value),
    0,
    order.length,
    0,
    sink,
  )
  const hash = keccak256(root)
  sink?.(hash, root)
  return hash
}
