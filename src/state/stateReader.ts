import { HeaderView } from '../store/headerView.js'
import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MerkleStateManager, getMerkleStateProof } from '@ethereumjs/statemanager'
import { type Account, Address, ValueEncoding } from '@ethereumjs/util'
import type { ChainSpec } from '../chain/spec.js'
import type { ChainStore } from '../store/chainStore.js'
import { OverlayTrieDB } from '../trie/trieDb.js'
import { bytesToHex, toQuantity } from '../util/hex.js'

/** A state read at a block (eth_getBalance, eth_getTransactionCount, eth_getCode, eth_getStorageAt). */
export type StateQuery =
  | { kind: 'balance'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'nonce'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'code'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'storage'; blockHash: Uint8Array; address: Uint8Array; slot: Uint8Array }
  /** eth_getStorageValues: several slots of several accounts. */
  | { kind: 'storageValues'; blockHash: Uint8Array; entries: { address: Uint8Array; slots: Uint8Array[] }[] }
  /** eth_getProof (EIP-1186): the account's proof and each slot's; `keys` are echoed as the client wrote them. */
  | { kind: 'proof'; blockHash: Uint8Array; address: Uint8Array; slots: Uint8Array[]; keys: string[] }

/** What a state query answers: a hex value, a list per account, a proof object; null for an unknown block. */
export type StateAnswer = string | string[][] | Record<string, unknown> | null

/** A slot's value as eth_getStorageAt returns it: 32 bytes, left-padded. */
function word(value: Uint8Array): string {
  const out = new Uint8Array(32)
  out.set(value, 32 - value.length)
  return bytesToHex(out)
}

/** Reads accounts, code and storage at a block's state root. One per worker thread, re-rooted per query. */
export class StateReader {
  private readonly sm: MerkleStateManager

  constructor(
    spec: ChainSpec,
    private readonly store: ChainStore,
  ) {
    const common = spec.common.copy()
    const trie = new MerklePatriciaTrie({
      db: new OverlayTrieDB(store),
      useKeyHashing: true,
      valueEncoding: ValueEncoding.Bytes,
      common,
    })
    this.sm = new MerkleStateManager({ trie, common })
  }

  /** The account at a state root (undefined when it does not exist). */
  async account(stateRoot: Uint8Array, address: Uint8Array): Promise<Account | undefined> {
    await this.sm.setStateRoot(stateRoot, true)
    return this.sm.getAccount(new Address(address))
  }

  /** null when the block is unknown. */
  async query(q: StateQuery): Promise<StateAnswer> {
    const header = HeaderView.read(this.store, q.blockHash)
    if (header === undefined) return null
    await this.sm.setStateRoot(header.stateRoot, true)
    if (q.kind === 'storageValues') {
      const out: string[][] = []
      for (const e of q.entries) {
        const a = new Address(e.address)
        const values: string[] = []
        for (const slot of e.slots) values.push(word(await this.sm.getStorage(a, slot)))
        out.push(values)
      }
      return out
    }
    const address = new Address(q.address)
    switch (q.kind) {
      case 'balance':
        return toQuantity((await this.sm.getAccount(address))?.balance ?? 0n)
      case 'nonce':
        return toQuantity((await this.sm.getAccount(address))?.nonce ?? 0n)
      case 'code':
        return bytesToHex(await this.sm.getCode(address))
      case 'storage':
        return word(await this.sm.getStorage(address, q.slot))
      case 'proof': {
        const proof = await getMerkleStateProof(this.sm, address, q.slots)
        // geth's shape: storage values as quantities, keys as the client sent them.
        return {
          ...proof,
          storageProof: proof.storageProof.map((p, i) => ({ key: q.keys[i]!, value: toQuantity(BigInt(p.value)), proof: p.proof })),
        }
      }
    }
  }
}
