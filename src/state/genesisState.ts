import { RLP } from '@ethereumjs/rlp'
import { KECCAK256_NULL, KECCAK256_RLP, bigIntToBytes, bigIntToUnpaddedBytes, setLengthLeft } from '@ethereumjs/util'
import { type GethGenesisFile, genesisNumber } from '../chain/genesis.js'
import { keccak256 } from '../crypto/keccak.js'
import { CODE_PREFIX } from '../store/layout.js'
import { bytesToHex, concatBytes, hexToBytes } from '../util/hex.js'
import { ACCOUNT, type ChangeWriter, SLOT } from '../store/stateChanges.js'
import { trieRoot } from '../trie/orderedTrie.js'

/**
 * Writes a genesis alloc's state as the store lays it out — account trie, storage tries, code — and
 * returns the state root. Each trie is built in one pass over its sorted hashed keys, and only the final nodes are
 * handed to `put` (key: the database key as unprefixed hex): inserting account by account into EthereumJS's trie made
 * and kept every intermediate node, which ran a node out of memory on a genesis of a million accounts. `flat`, when
 * given, receives every account and slot for the flat state table.
 */
export function writeGenesisState(alloc: GethGenesisFile['alloc'], put: (key: string, value: Uint8Array) => void, flat?: ChangeWriter): Uint8Array {
  const sink = (hash: Uint8Array, encoded: Uint8Array) => put(unprefixed(hash), encoded)
  // Addresses as geth reads them: with or without 0x, any case (the last spelling of one address wins).
  const accounts = new Map<string, GethGenesisFile['alloc'][string]>()
  for (const [address, account] of Object.entries(alloc)) accounts.set((address.startsWith('0x') ? address : `0x${address}`).toLowerCase(), account)
  const keys: Uint8Array[] = []
  const values: Uint8Array[] = []
  for (const [address, account] of accounts) {
    const addressBytes = hexToBytes(address)
    const code = account.code === undefined ? new Uint8Array() : hexToBytes(account.code)
    const codeHash = code.length === 0 ? KECCAK256_NULL : keccak256(code)
    if (code.length !== 0) put(unprefixed(concatBytes(CODE_PREFIX, codeHash)), code)
    const slotKeys: Uint8Array[] = []
    const slotValues: Uint8Array[] = []
    for (const [slot, value] of Object.entries(account.storage ?? {})) {
      const v = genesisNumber(value)
      if (v === 0n) continue
      slotKeys.push(keccak256(setLengthLeft(bigIntToBytes(genesisNumber(slot)), 32)))
      slotValues.push(RLP.encode(bigIntToUnpaddedBytes(v)))
      flat?.add(SLOT, concatBytes(addressBytes, slotKeys[slotKeys.length - 1]!), slotValues[slotValues.length - 1])
    }
    const storageRoot = slotKeys.length === 0 ? KECCAK256_RLP : trieRoot(slotKeys, slotValues, sink)
    keys.push(keccak256(addressBytes))
    values.push(
      RLP.encode([bigIntToUnpaddedBytes(genesisNumber(account.nonce)), bigIntToUnpaddedBytes(genesisNumber(account.balance)), storageRoot, codeHash]),
    )
    flat?.add(ACCOUNT, addressBytes, values[values.length - 1])
  }
  return trieRoot(keys, values, sink)
}

const unprefixed = (bytes: Uint8Array): string => bytesToHex(bytes).slice(2)
