import { keccak256 } from '../crypto/keccak.js'
import { EMPTY_CODE_HASH } from '../evm/state.js'
import { bytesToWord, writeWord } from '../evm/words.js'
import type { ChainStore } from '../store/chainStore.js'
import { trieGet } from '../trie/trieRead.js'
import { bytesToHex, toQuantity } from '../util/hex.js'
import { decodeAccount, decodeSlot, isEmptyTrie } from './accountCodec.js'
import type { EvmConfig } from './evmConfig.js'

// State reads at any stored block, answered in a worker (the flat table answers the head's on the serving thread):
// eth_getBalance, eth_getTransactionCount, eth_getCode, eth_getStorageAt, eth_getStorageValues through the seam's
// state sources, and eth_getProof (EIP-1186) from the nodes the trie walk reads.

/** A state read at a block (eth_getBalance, eth_getTransactionCount, eth_getCode, eth_getStorageAt). */
export type StateQuery =
  | { kind: 'balance'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'nonce'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'code'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'storage'; blockHash: Uint8Array; address: Uint8Array; slot: Uint8Array }
  /** eth_getStorageValues: several slots of several accounts. */
  | { kind: 'storageValues'; blockHash: Uint8Array; entries: { address: Uint8Array; slots: Uint8Array[] }[] }
  /** eth_getProof (EIP-1186): the account's proof and each slot's; `keys` are echoed as given (geth's forms). */
  | { kind: 'proof'; blockHash: Uint8Array; address: Uint8Array; slots: Uint8Array[]; keys: string[] }

/** What a state query answers: a hex value, a list per account, a proof object; null for an unknown block. */
export type StateAnswer = string | string[][] | ProofAnswer | null

export interface ProofAnswer {
  address: string
  accountProof: string[]
  balance: string
  codeHash: string
  nonce: string
  storageHash: string
  storageProof: { key: string; value: string; proof: string[] }[]
}

const ZERO_HASH = `0x${'00'.repeat(32)}`

export function answerStateQuery(config: EvmConfig, q: StateQuery): StateAnswer {
  const header = config.header(q.blockHash)
  if (header === undefined) return null
  const source = config.stateAt(header.stateRoot)
  if (q.kind === 'storageValues') return q.entries.map((e) => e.slots.map((s) => wordHex(source.storage(bytesToWord(e.address), bytesToWord(s)))))
  if (q.kind === 'proof') return proofOf(config.store, header.stateRoot, q)
  const address = bytesToWord(q.address)
  switch (q.kind) {
    case 'balance':
      return toQuantity(source.account(address)?.balance ?? 0n)
    case 'nonce':
      return toQuantity(source.account(address)?.nonce ?? 0n)
    case 'code': {
      const a = source.account(address)
      return bytesToHex(a === undefined || a.codeHash === EMPTY_CODE_HASH ? new Uint8Array() : source.code(a.codeHash, address))
    }
    case 'storage':
      return wordHex(source.storage(address, bytesToWord(q.slot)))
  }
}

function wordHex(v: bigint): string {
  const w = new Uint8Array(32)
  writeWord(w, 0, v)
  return bytesToHex(w)
}

/**
 * EIP-1186's proof as geth answers it: the nodes on the account's path in the state trie and on each slot's in its
 * storage trie (none for an account without storage), values as quantities; an account that does not exist has a
 * zero code hash and storage hash (geth's state reads them so).
 */
function proofOf(store: ChainStore, stateRoot: Uint8Array, q: Extract<StateQuery, { kind: 'proof' }>): ProofAnswer {
  // Views of LMDB's buffer: each value is decoded before the next read (the proof's nodes are copied).
  const load = (hash: Uint8Array) => store.trieNodeView(hash)
  const accountProof: Uint8Array[] = []
  const rlp = trieGet(stateRoot, keccak256(q.address), load, accountProof)
  const account = rlp === undefined ? undefined : decodeAccount(rlp)
  const storageRoot = account?.storageRoot
  const storageProof = q.slots.map((slot, i) => {
    if (storageRoot === undefined || isEmptyTrie(storageRoot)) return { key: q.keys[i]!, value: '0x0', proof: [] }
    const proof: Uint8Array[] = []
    const value = trieGet(storageRoot, keccak256(slot), load, proof)
    return { key: q.keys[i]!, value: toQuantity(value === undefined ? 0n : decodeSlot(value)), proof: proof.map(bytesToHex) }
  })
  return {
    address: bytesToHex(q.address),
    accountProof: accountProof.map(bytesToHex),
    balance: toQuantity(account?.balance ?? 0n),
    codeHash: account === undefined ? ZERO_HASH : bytesToHex(account.codeHash),
    nonce: toQuantity(account?.nonce ?? 0n),
    storageHash: storageRoot === undefined ? ZERO_HASH : bytesToHex(storageRoot),
    storageProof,
  }
}
