import { EMPTY_CODE_HASH } from '../evm/state.js'
import type { AccountData } from '../evm/state.js'
import { rlpEnd, rlpStart, rlpStringAt } from '../util/rlpString.js'

const WHAT = 'state value'

// The state trie's account and slot values (RLP), read in place: a state source decodes one per account or slot
// the EVM asks for, so no array per item and no hex on the way to a BigInt.

/** keccak256(RLP('')): the root of an empty storage trie. */
export const EMPTY_TRIE_ROOT = Uint8Array.from(Buffer.from('56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421', 'hex'))

/** An account as the state holds it: the EVM's fields and the root of its storage trie. */
export interface StoredAccount extends AccountData {
  storageRoot: Uint8Array
}

/** Big-endian bytes as a BigInt; up to six bytes through a double. */
export function beToBigInt(b: Uint8Array, start: number, end: number): bigint {
  if (end - start <= 6) {
    let x = 0
    for (let i = start; i < end; i++) x = x * 256 + b[i]!
    return BigInt(x)
  }
  let v = 0n
  let i = start
  // Six bytes at a time: fewer BigInt steps than byte by byte.
  for (; i + 6 <= end; i += 6) {
    let x = 0
    for (let j = i; j < i + 6; j++) x = x * 256 + b[j]!
    v = (v << 48n) | BigInt(x)
  }
  for (; i < end; i++) v = (v << 8n) | BigInt(b[i]!)
  return v
}

/** Decodes an account's RLP (nonce, balance, storage root, code hash); the hashes are copied out of `rlp`. */
export function decodeAccount(rlp: Uint8Array): StoredAccount {
  const p = rlp[0]!
  if (p < 0xc0) throw new Error('account value is not a list')
  let at = p <= 0xf7 ? 1 : 1 + p - 0xf7
  at = rlpStringAt(rlp, at, WHAT)
  const nonce = beToBigInt(rlp, rlpStart, rlpEnd)
  at = rlpStringAt(rlp, at, WHAT)
  const balance = beToBigInt(rlp, rlpStart, rlpEnd)
  at = rlpStringAt(rlp, at, WHAT)
  const storageRoot = copy(rlp, rlpStart, rlpEnd)
  rlpStringAt(rlp, at, WHAT)
  const codeHash = sameOrCopy(rlp, rlpStart, rlpEnd)
  return { nonce, balance, storageRoot, codeHash }
}

/** A slot's RLP (the value's minimal big-endian bytes) as a word. */
export function decodeSlot(rlp: Uint8Array): bigint {
  rlpStringAt(rlp, 0, WHAT)
  return beToBigInt(rlp, rlpStart, rlpEnd)
}

/** The empty code's hash as the EVM's shared array (emptiness is an identity test there), else a copy. */
function sameOrCopy(b: Uint8Array, start: number, end: number): Uint8Array {
  if (end - start === 32) {
    let same = true
    for (let i = 0; i < 32; i++)
      if (b[start + i] !== EMPTY_CODE_HASH[i]) {
        same = false
        break
      }
    if (same) return EMPTY_CODE_HASH
  }
  return copy(b, start, end)
}

/** A copy of bytes[start, end): a Buffer's slice is a view, and the bytes may be LMDB's read buffer. */
function copy(b: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start)
  for (let i = 0; i < out.length; i++) out[i] = b[start + i]!
  return out
}

export function isEmptyTrie(root: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (root[i] !== EMPTY_TRIE_ROOT[i]) return false
  return root.length === 32
}
