import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../crypto/keccak.js'
import { hexPrefix, nibblesOf } from './nibbles.js'

type Node = Uint8Array | Node[]

/** How a child node is referenced from its parent: inline when its RLP is under 32 bytes, else by hash. */
function ref(node: Node): Node {
  const enc = RLP.encode(node as never)
  return enc.length < 32 ? node : keccak256(enc)
}

function build(keys: Uint8Array[], values: Uint8Array[], lo: number, hi: number, depth: number): Node {
  if (hi - lo === 1) return [hexPrefix(keys[lo]!, depth, keys[lo]!.length, true), values[lo]!]
  // Keys are sorted: the common prefix of the range is that of its first and last keys.
  const a = keys[lo]!
  const b = keys[hi - 1]!
  let cp = depth
  while (cp < a.length && cp < b.length && a[cp] === b[cp]) cp++
  if (cp > depth) return [hexPrefix(a, depth, cp, false), ref(build(keys, values, lo, hi, cp))]
  const branch: Node[] = new Array(17).fill(new Uint8Array())
  let i = lo
  if (keys[i]!.length === depth) branch[16] = values[i++]!
  while (i < hi) {
    const nib = keys[i]![depth]!
    let j = i + 1
    while (j < hi && keys[j]![depth] === nib) j++
    branch[nib] = ref(build(keys, values, i, j, depth + 1))
    i = j
  }
  return branch
}

function compare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/**
 * The root of the trie that maps RLP(index) to each value — transactions, receipts and withdrawals roots — built in
 * one pass over the sorted keys (like geth's StackTrie) instead of EthereumJS's general trie, whose per-insert node
 * re-encoding dominated block import profiles.
 */
export function orderedTrieRoot(values: Uint8Array[]): Uint8Array {
  if (values.length === 0) return keccak256(RLP.encode(new Uint8Array()))
  const order = values.map((_, i) => ({ key: nibblesOf(RLP.encode(i)), value: values[i]! }))
  order.sort((x, y) => compare(x.key, y.key))
  const root = build(
    order.map((o) => o.key),
    order.map((o) => o.value),
    0,
    order.length,
    0,
  )
  return keccak256(RLP.encode(root as never))
}
