import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { type Address, KECCAK256_RLP, createAccountFromRLP } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { ACCOUNT, ChangeWriter, SLOT, WIPE } from '../store/stateChanges.js'
import { concatBytes, equalBytes, hexToBytes } from '../util/hex.js'
import { stateCaches, stateManagerInternals } from './ethereumjsInternals.js'

/** An RLP-encoded zero: how EthereumJS's storage cache marks a slot known to be empty. */
const RLP_EMPTY = 0x80

/**
 * Collects what a block wrote to the state, for the flat table (store/flatState.ts): everything EthereumJS's caches
 * hand to the tries when they flush between `begin` and `take` — those are the block's writes (and the values it
 * read, unchanged; applying them changes nothing) — and the accounts deleted meanwhile, whose storage the tries drop
 * without listing it slot by slot.
 */
export class StateChangeRecorder {
  private accounts = new Map<string, Uint8Array | undefined>()
  private slots = new Map<string, Map<string, Uint8Array | undefined>>()
  private deleted = new Set<string>()

  constructor(private readonly sm: MerkleStateManager) {
    const caches = stateCaches(sm)
    const account = caches.account!
    const storage = caches.storage!
    const flushAccounts = account.flush.bind(account)
    account.flush = () => {
      const items = flushAccounts()
      for (const [address, elem] of items) this.accounts.set(address, elem.accountRLP)
      return items
    }
    const flushStorage = storage.flush.bind(storage)
    storage.flush = () => {
      const items = flushStorage()
      for (const [address, slot, value] of items) {
        let slots = this.slots.get(address)
        if (slots === undefined) this.slots.set(address, (slots = new Map()))
        slots.set(slot, value)
      }
      return items
    }
    // Every deletion (self-destruct, EIP-161 cleanup, system address) goes through the account cache's del.
    const del = account.del.bind(account)
    account.del = (address: Address) => {
      this.deleted.add(address.toString().slice(2))
      del(address)
    }
  }

  /** Forgets what was collected: the state manager is now at the parent of the block about to be made. */
  begin(): void {
    this.accounts = new Map()
    this.slots = new Map()
    this.deleted = new Set()
  }

  /** The collected changes as a change list (store/stateChanges.ts); call after the block's final flush. */
  async take(): Promise<Uint8Array> {
    const out = new ChangeWriter()
    for (const address of this.deleted) {
      const addressBytes = hexToBytes(`0x${address}`)
      out.add(WIPE, addressBytes, undefined)
      const rlp = this.accounts.get(address)
      if (rlp === undefined) continue
      // Deleted and made again within the block (or the deletion was reverted): its storage is whatever its trie
      // holds now, listed in full.
      const storageRoot = createAccountFromRLP(rlp).storageRoot
      if (equalBytes(storageRoot, KECCAK256_RLP)) continue
      for (const [hashedSlot, value] of await this.storageOf(storageRoot)) {
        out.add(SLOT, concatBytes(addressBytes, hashedSlot), value)
      }
    }
    for (const [address, slots] of this.slots) {
      // A deleted account's slots are covered above; the tries drop the slots of an account that is gone.
      if (this.deleted.has(address) || (this.accounts.has(address) && this.accounts.get(address) === undefined)) continue
      const addressBytes = hexToBytes(`0x${address}`)
      for (const [slot, value] of slots) {
        const present = value !== undefined && !(value.length === 1 && value[0] === RLP_EMPTY)
        out.add(SLOT, concatBytes(addressBytes, keccak256(hexToBytes(`0x${slot}`))), present ? value : undefined)
      }
    }
    for (const [address, rlp] of this.accounts) out.add(ACCOUNT, hexToBytes(`0x${address}`), rlp)
    this.begin()
    return out.finish()
  }

  private async storageOf(storageRoot: Uint8Array): Promise<[Uint8Array, Uint8Array][]> {
    const trie = stateManagerInternals(this.sm)._trie.shallowCopy(false)
    trie.root(storageRoot)
    const { values } = await trie.getValueMap()
    return Object.entries(values).map(([k, v]) => [hexToBytes(k), hexToBytes(v)])
  }
}
