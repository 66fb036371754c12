import { RLP } from '@ethereumjs/rlp'
import { CODEHASH_PREFIX } from '@ethereumjs/statemanager'
import { KECCAK256_NULL } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import type { ChainStore } from '../store/chainStore.js'
import { bytesToBigInt, equalBytes } from '../util/hex.js'

// State reads answered on the serving thread from the flat state table (store/flatState.ts), as receipts are: an
// LMDB read or two and no trie walk, no worker round trip. Only the state the table holds — the last stored block's
// post-state — is answered here; every method returns undefined for any other state, and the caller asks a worker,
// which walks the tries.

/** An account's fields as eth_getBalance, eth_getTransactionCount and eth_getCode need them; null: no account. */
export interface FlatAccount {
  nonce: bigint
  balance: bigint
  codeHash: Uint8Array
}

export class FlatStateReader {
  /** address ‖ keccak256(slot), the flat storage key, reused: the serving thread reads one slot at a time. */
  private readonly slotKey = new Uint8Array(52)

  constructor(private readonly store: ChainStore) {}

  account(stateRoot: Uint8Array, address: Uint8Array): FlatAccount | null | undefined {
    const rlp = this.store.flatAccount(stateRoot, address)
    if (rlp === undefined || rlp === null) return rlp
    const [nonce, balance, , codeHash] = RLP.decode(rlp) as Uint8Array[]
    return { nonce: bytesToBigInt(nonce!), balance: bytesToBigInt(balance!), codeHash: codeHash! }
  }

  /** The account's code (empty for none). */
  code(stateRoot: Uint8Array, address: Uint8Array): Uint8Array | undefined {
    const account = this.account(stateRoot, address)
    if (account === undefined) return undefined
    if (account === null || equalBytes(account.codeHash, KECCAK256_NULL)) return new Uint8Array()
    const key = new Uint8Array(CODEHASH_PREFIX.length + 32)
    key.set(CODEHASH_PREFIX)
    key.set(account.codeHash, CODEHASH_PREFIX.length)
    // The account was read from the table at this state, so its code is stored: a miss is the store's fault.
    const code = this.store.getTrieNode(key)
    if (code === undefined) throw new Error(`code ${Buffer.from(account.codeHash).toString('hex')} missing from the store`)
    return code
  }

  /** A storage slot's value as a 32-byte word (zero when unset). */
  slot(stateRoot: Uint8Array, address: Uint8Array, slot: Uint8Array): Uint8Array | undefined {
    this.slotKey.set(address, 0)
    this.slotKey.set(keccak256(slot), 20)
    const rlp = this.store.flatSlot(stateRoot, this.slotKey)
    if (rlp === undefined) return undefined
    const word = new Uint8Array(32)
    if (rlp !== null) {
      const value = RLP.decode(rlp) as Uint8Array
      word.set(value, 32 - value.length)
    }
    return word
  }
}
