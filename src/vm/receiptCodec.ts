import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import type { Log } from '../evm/state.js'
import { addressToBytes, wordToBytes } from '../evm/words.js'

// A receipt's consensus encoding (what the receipts trie holds) and the logs bloom, from the EVM's own logs: what a
// block made on Sponge's EVM needs of its receipts, without EthereumJS's receipt objects.

const NO_BYTES = new Uint8Array()
const SUCCESS = Uint8Array.of(1)

/** Sets a value's three bits (yellow paper 4.3.1: the low 11 bits of the first three byte pairs of its hash). */
function addToBloom(bloom: Uint8Array, value: Uint8Array): void {
  const h = keccak256(value)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
    bloom[255 - (bit >> 3)]! |= 1 << (bit & 7)
  }
}

/** Adds logs' addresses and topics to a 256-byte bloom (a new one unless given). */
export function logsBloom(logs: readonly Log[], into: Uint8Array = new Uint8Array(256)): Uint8Array {
  for (const log of logs) {
    addToBloom(into, addressToBytes(log.address))
    for (const t of log.topics) addToBloom(into, wordToBytes(t))
  }
  return into
}

/**
 * A receipt's encoding: RLP [status, cumulative gas, bloom, logs], after the type byte for a typed transaction. Before
 * Byzantium the first field is the state root after the transaction (`outcome` as its 32 bytes).
 */
export function encodeReceipt(
  type: number,
  outcome: boolean | Uint8Array,
  cumulativeGasUsed: bigint,
  bloom: Uint8Array,
  logs: readonly Log[],
): Uint8Array {
  const body = RLP.encode([
    outcome instanceof Uint8Array ? outcome : outcome ? SUCCESS : NO_BYTES,
    bigIntToUnpaddedBytes(cumulativeGasUsed),
    bloom,
    logs.map((l) => [addressToBytes(l.address), l.topics.map(wordToBytes), l.data]),
  ])
  if (type === 0) return body
  const out = new Uint8Array(body.length + 1)
  out[0] = type
  out.set(body, 1)
  return out
}
