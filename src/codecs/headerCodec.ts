import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'

// A block header made from its fields (a block built on Sponge's EVM): its RLP, as geth's types.Header encodes it —
// the yellow paper's fifteen fields, then each fork's additions in order, the first one absent ending the list — and
// the uncle hash of a block without uncles.

export interface HeaderFields {
  parentHash: Uint8Array
  uncleHash: Uint8Array
  coinbase: Uint8Array
  stateRoot: Uint8Array
  transactionsRoot: Uint8Array
  receiptsRoot: Uint8Array
  logsBloom: Uint8Array
  difficulty: bigint
  number: bigint
  gasLimit: bigint
  gasUsed: bigint
  timestamp: bigint
  extraData: Uint8Array
  mixHash: Uint8Array
  /** 8 bytes. */
  nonce: Uint8Array
  /** London on. */
  baseFee?: bigint
  /** Shanghai on. */
  withdrawalsRoot?: Uint8Array
  /** Cancun on. */
  blobGasUsed?: bigint
  excessBlobGas?: bigint
  parentBeaconBlockRoot?: Uint8Array
  /** Prague on. */
  requestsHash?: Uint8Array
}

/** keccak-256 of the empty uncle list's RLP. */
export const EMPTY_UNCLE_HASH = keccak256(RLP.encode([]))

/** The header's RLP. Throws when a fork's field is given without an earlier fork's. */
export function encodeHeader(h: HeaderFields): Uint8Array {
  const q = bigIntToUnpaddedBytes
  const fields: Uint8Array[] = [
    h.parentHash,
    h.uncleHash,
    h.coinbase,
    h.stateRoot,
    h.transactionsRoot,
    h.receiptsRoot,
    h.logsBloom,
    q(h.difficulty),
    q(h.number),
    q(h.gasLimit),
    q(h.gasUsed),
    q(h.timestamp),
    h.extraData,
    h.mixHash,
    h.nonce,
  ]
  const later = [
    h.baseFee === undefined ? undefined : q(h.baseFee),
    h.withdrawalsRoot,
    h.blobGasUsed === undefined ? undefined : q(h.blobGasUsed),
    h.excessBlobGas === undefined ? undefined : q(h.excessBlobGas),
    h.parentBeaconBlockRoot,
    h.requestsHash,
  ]
  const absent = later.indexOf(undefined)
  const given = absent === -1 ? later : later.slice(0, absent)
  if (later.slice(given.length).some((f) => f !== undefined)) throw new Error('header field given without an earlier fork’s')
  fields.push(...(given as Uint8Array[]))
  return RLP.encode(fields)
}
