import { RLP } from '@ethereumjs/rlp'
import type { ChainSpec } from '../chain/spec.js'
import type { ChainStoreReads } from '../store/chainStore.js'
import { bodyTransactions } from '../store/blockCodec.js'
import { HeaderView } from '../store/headerView.js'
import { bytesToBigInt, bytesToHex, hexToBytes, toQuantity } from '../util/hex.js'
import { EngineError } from './errors.js'

/** engine_getPayloadBodiesByHashV1/ByRangeV1's limit (geth's): at least 32 must be served (shanghai.md). */
export const MAX_PAYLOAD_BODIES = 1024

export interface PayloadBodyV1 {
  transactions: string[]
  /** null before Shanghai. */
  withdrawals: { index: string; validatorIndex: string; address: string; amount: string }[] | null
}

/** A stored block's ExecutionPayloadBodyV1, from its body RLP: [transactions, uncles, withdrawals?]. */
function bodyOf(spec: ChainSpec, store: ChainStoreReads, hash: Uint8Array): PayloadBodyV1 | null {
  const body = store.getBodyRlp(hash)
  const header = HeaderView.read(store, hash)
  if (body === undefined || header === undefined) return null
  const [, , withdrawals] = RLP.decode(body) as [unknown, unknown, Uint8Array[][] | undefined]
  const shanghai = spec.isActive('shanghai', header.number, header.timestamp)
  return {
    transactions: bodyTransactions(body).map((t) => bytesToHex(t)),
    withdrawals: !shanghai
      ? null
      : (withdrawals ?? []).map(([index, validator, address, amount]) => ({
          index: toQuantity(bytesToBigInt(index!)),
          validatorIndex: toQuantity(bytesToBigInt(validator!)),
          address: bytesToHex(address!),
          amount: toQuantity(bytesToBigInt(amount!)),
        })),
  }
}

/** engine_getPayloadBodiesByHashV1: in the order asked, null for blocks the store does not have. */
export function payloadBodiesByHash(spec: ChainSpec, store: ChainStoreReads, hashes: string[]): (PayloadBodyV1 | null)[] {
  if (hashes.length > MAX_PAYLOAD_BODIES) throw new EngineError('tooLargeRequest', `requested ${hashes.length} bodies, limit ${MAX_PAYLOAD_BODIES}`)
  return hashes.map((h) => bodyOf(spec, store, hexToBytes(h)))
}

/**
 * engine_getPayloadBodiesByRangeV1: the canonical blocks start…start+count-1, null for those unavailable below the
 * head, nothing past the head (no trailing nulls).
 */
export function payloadBodiesByRange(spec: ChainSpec, store: ChainStoreReads, start: bigint, count: bigint, head: bigint): (PayloadBodyV1 | null)[] {
  if (start < 1n || count < 1n) throw new EngineError('invalidParams', 'start and count must be at least 1')
  if (count > BigInt(MAX_PAYLOAD_BODIES)) throw new EngineError('tooLargeRequest', `requested ${count} bodies, limit ${MAX_PAYLOAD_BODIES}`)
  const out: (PayloadBodyV1 | null)[] = []
  const last = start + count - 1n < head ? start + count - 1n : head
  for (let n = start; n <= last; n++) {
    const hash = store.getCanonicalHash(n)
    out.push(hash === undefined ? null : bodyOf(spec, store, hash))
  }
  return out
}
