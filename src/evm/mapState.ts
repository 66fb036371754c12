import { keccak256 } from '../crypto/keccak.js'
import type { PlainAccount } from '../state/accountsRoot.js'
import { type AccountData, EMPTY_CODE, EMPTY_CODE_HASH, type StateSource } from './state.js'

// A state source over plain maps: the state tests' pre-states, the interpreter's tests and its benchmark.

export class MapStateSource implements StateSource {
  private readonly data = new Map<bigint, AccountData & { code: Uint8Array; storage: ReadonlyMap<bigint, bigint> }>()

  constructor(accounts: Iterable<[bigint, PlainAccount]>) {
    for (const [address, a] of accounts) {
      const codeHash = a.code.length === 0 ? EMPTY_CODE_HASH : keccak256(a.code)
      this.data.set(address, { nonce: a.nonce, balance: a.balance, codeHash, code: a.code.length === 0 ? EMPTY_CODE : a.code, storage: a.storage })
    }
  }

  account(address: bigint): AccountData | undefined {
    return this.data.get(address)
  }

  code(_codeHash: Uint8Array, address: bigint): Uint8Array {
    return this.data.get(address)?.code ?? EMPTY_CODE
  }

  storage(address: bigint, slot: bigint): bigint {
    return this.data.get(address)?.storage.get(slot) ?? 0n
  }

  hasStorage(address: bigint): boolean {
    const s = this.data.get(address)?.storage
    if (s === undefined) return false
    for (const v of s.values()) if (v !== 0n) return true
    return false
  }

  /** Every account, for a post-state built from it and a WorldState's changes. */
  entries(): IterableIterator<[bigint, AccountData & { code: Uint8Array; storage: ReadonlyMap<bigint, bigint> }]> {
    return this.data.entries()
  }
}
