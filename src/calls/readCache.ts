import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { type Account, type Address, createAccountFromRLP } from '@ethereumjs/util'
import { setBounded } from '../util/boundedMap.js'
import { setOriginalStorageReader, stateCaches } from '../state/ethereumjsInternals.js'

/**
 * Reads kept across eth_calls. Each call runs in a checkpoint that is reverted, and EthereumJS's caches forget what
 * was read inside a checkpoint when it reverts: every call walked the trie again for every account and slot it
 * touched (the RLP decoding of trie nodes was an eighth of a call's time). These caches sit behind the state
 * manager's own (which still holds what the current call wrote, and wins) and are keyed by content, so they never go
 * stale: an account by state root and address, a slot by the account's storage root and key.
 */
export class CallReadCache {
  private readonly accounts = new Map<string, Uint8Array | null>()
  private readonly slots = new Map<string, Uint8Array>()

  constructor(
    sm: MerkleStateManager,
    private readonly stateRoot: () => Uint8Array | undefined,
    private readonly max = 200_000,
  ) {
    const own = stateCaches(sm)
    const getAccount = sm.getAccount.bind(sm)
    const getStorage = sm.getStorage.bind(sm)
    sm.getAccount = async (address: Address): Promise<Account | undefined> => {
      const root = this.stateRoot()
      if (root === undefined || own.account!.get(address) !== undefined) return getAccount(address)
      const key = latin1(root) + latin1(address.bytes)
      const rlp = this.accounts.get(key)
      if (rlp !== undefined) return rlp === null ? undefined : createAccountFromRLP(rlp)
      const account = await getAccount(address)
      setBounded(this.accounts, key, account === undefined ? null : account.serialize(), this.max)
      return account
    }
    sm.getStorage = async (address: Address, slot: Uint8Array): Promise<Uint8Array> => {
      if (own.storage!.get(address, slot) !== undefined) return getStorage(address, slot)
      const account = await sm.getAccount(address)
      if (account === undefined) return getStorage(address, slot)
      const key = latin1(account.storageRoot) + latin1(slot)
      const value = this.slots.get(key)
      if (value !== undefined) return value
      const read = await getStorage(address, slot)
      setBounded(this.slots, key, read, this.max)
      return read
    }
    // SSTORE's gas asks the original value through a getStorage bound before the line above replaced it: every
    // SSTORE of every call walked the storage trie again.
    setOriginalStorageReader(sm, sm.getStorage)
  }
}

function latin1(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1')
}
