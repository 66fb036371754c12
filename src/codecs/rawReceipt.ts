import { RLP } from '@ethereumjs/rlp'
import { hexToBytes } from '../util/hex.js'

interface ReceiptJsonFields {
  type: string
  status?: string
  root?: string
  cumulativeGasUsed: string
  logsBloom: string
  logs: { address: string; topics: string[]; data: string }[]
}

/** A quantity as RLP wants it: big-endian without leading zeros (zero is empty). */
function quantityBytes(q: string): Uint8Array {
  const v = BigInt(q)
  return v === 0n ? new Uint8Array() : hexToBytes(`0x${v.toString(16).padStart(Math.ceil(v.toString(16).length / 2) * 2, '0')}`)
}

/**
 * The consensus encoding of a receipt (what the receipts trie holds and debug_getRawReceipts returns) from its stored
 * JSON: RLP [status or post-state root, cumulative gas, bloom, logs], after the type byte for typed transactions.
 */
export function rawReceiptFromJson(json: string): Uint8Array {
  const r = JSON.parse(json) as ReceiptJsonFields
  const outcome = r.root !== undefined ? hexToBytes(r.root) : BigInt(r.status ?? '0x0') === 1n ? Uint8Array.of(1) : new Uint8Array()
  const body = RLP.encode([
    outcome,
    quantityBytes(r.cumulativeGasUsed),
    hexToBytes(r.logsBloom),
    r.logs.map((l) => [hexToBytes(l.address), l.topics.map(hexToBytes), hexToBytes(l.data)]),
  ])
  const type = Number(BigInt(r.type))
  if (type === 0) return body
  const out = new Uint8Array(body.length + 1)
  out[0] = type
  out.set(body, 1)
  return out
}
