import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_NULL, KECCAK256_RLP, bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { trieRoot } from '../trie/orderedTrie.js'
import { type Hex, hexToBytes } from '../util/hex.js'

/** An account as a plain value, as a state test lists its pre and post states. */
export interface PlainAccount {
  nonce: bigint
  balance: bigint
  code: Uint8Array
  /** Slot → value. A zero value is the same as an absent slot. */
  storage: ReadonlyMap<bigint, bigint>
}

/** A whole state as plain values: lowercase 0x-prefixed 20-byte address → account. Every account listed exists. */
export type PlainState = ReadonlyMap<Hex, PlainAccount>

/** The 32-byte big-endian word of a slot number or value. */
function word(value: bigint): Uint8Array {
  const out = new Uint8Array(32)
  let v = value
  for (let i = 31; i >= 0 && v > 0n; i--) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

/** The root of an account's storage trie: keccak(slot as 32 bytes) → RLP(value, no leading zeros); zeros left out. */
export function storageRoot(storage: ReadonlyMap<bigint, bigint>): Uint8Array {
  const keys: Uint8Array[] = []
  const values: Uint8Array[] = []
  for (const [slot, value] of storage) {
    if (value === 0n) continue
    keys.push(keccak256(word(slot)))
    values.push(RLP.encode(bigIntToUnpaddedBytes(value)))
  }
  return keys.length === 0 ? KECCAK256_RLP : trieRoot(keys, values)
}

/** An account's RLP as the state trie holds it: [nonce, balance, storage root, code hash] (yellow paper, 4.1). */
export function accountRlp(account: PlainAccount): Uint8Array {
  const codeHash = account.code.length === 0 ? KECCAK256_NULL : keccak256(account.code)
  return RLP.encode([bigIntToUnpaddedBytes(account.nonce), bigIntToUnpaddedBytes(account.balance), storageRoot(account.storage), codeHash])
}

/**
 * The state root of a plain state: the trie of keccak(address) → the account's RLP, built in one pass (orderedTrie's
 * trieRoot). The empty state's root is keccak(RLP("")), as is an account's without storage; no code hashes to
 * keccak("").
 */
export function accountsRoot(accounts: PlainState): Uint8Array {
  const keys: Uint8Array[] = []
  const values: Uint8Array[] = []
  for (const [address, account] of accounts) {
    keys.push(keccak256(hexToBytes(address)))
    values.push(accountRlp(account))
  }
  return trieRoot(keys, values)
}
