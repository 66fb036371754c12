import { type Block, type BlockHeader, createBlockFromBytesArray, createBlockHeaderFromRLP } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import { type ChainSpec, SPEC_PARAMS } from '../chain/spec.js'
import { type BlockParts, withdrawalRlp } from '../codecs/blockParts.js'
import type { ChainStore } from './chainStore.js'

/**
 * The stored body of a block: RLP of [transactions, uncles, withdrawals?], the block's RLP minus its header, with its
 * transactions' bytes as received (a payload's) spliced in rather than each transaction encoded again.
 */
export function bodyRlp(block: BlockParts, txBytes: readonly Uint8Array[]): Uint8Array {
  // In a body a typed transaction is a byte string of its bytes, a legacy one its own RLP list.
  const items = txBytes.map((t) => (t.length > 0 && t[0]! >= 0xc0 ? t : RLP.encode(t)))
  const rest = [listOf(block.uncles)]
  if (block.withdrawals !== undefined) rest.push(listOf(block.withdrawals.map(withdrawalRlp)))
  return listOf([listOf(items), ...rest])
}

/** The RLP list of items already encoded. */
function listOf(items: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const t of items) length += t.length
  const prefix = listPrefix(length)
  const out = new Uint8Array(prefix.length + length)
  out.set(prefix, 0)
  let at = prefix.length
  for (const t of items) {
    out.set(t, at)
    at += t.length
  }
  return out
}

/** Length of an RLP list prefix for a payload of `n` bytes. */
function listPrefixLength(n: number): number {
  if (n < 56) return 1
  let bytes = 0
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes++
  return 1 + bytes
}

/**
 * The block's RLP size (eth_getBlockBy*'s `size`) from its stored header and body, without serializing the block
 * again: the block list holds the header followed by the body list's items.
 */
export function blockSize(headerRlp: Uint8Array, body: Uint8Array): number {
  const first = body[0]!
  const bodyPrefix = first < 0xf8 ? 1 : 1 + (first - 0xf7)
  const payload = headerRlp.length + body.length - bodyPrefix
  return listPrefixLength(payload) + payload
}

/** The RLP of a list whose items' encodings (concatenated) are `payload` bytes long: its prefix. */
function listPrefix(length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(0xc0 + length)
  const bytes: number[] = []
  for (let v = length; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256)
  return Uint8Array.of(0xf7 + bytes.length, ...bytes)
}

/** The block's RLP from its stored header and body: one list of the header followed by the body list's items. */
export function rawBlock(headerRlp: Uint8Array, body: Uint8Array): Uint8Array {
  const first = body[0]!
  const items = body.subarray(first < 0xf8 ? 1 : 1 + (first - 0xf7))
  const prefix = listPrefix(headerRlp.length + items.length)
  const out = new Uint8Array(prefix.length + headerRlp.length + items.length)
  out.set(prefix, 0)
  out.set(headerRlp, prefix.length)
  out.set(items, prefix.length + headerRlp.length)
  return out
}

/** The transactions of a stored body as broadcast: a legacy one is an RLP list in the body, a typed one its bytes. */
export function bodyTransactions(body: Uint8Array): Uint8Array[] {
  const [txs] = RLP.decode(body) as [(Uint8Array | Uint8Array[])[]]
  return txs.map((t) => (t instanceof Uint8Array ? t : RLP.encode(t)))
}

export function readHeader(spec: ChainSpec, store: ChainStore, hash: Uint8Array): BlockHeader | undefined {
  const rlp = store.getHeaderRlp(hash)
  return rlp === undefined ? undefined : createBlockHeaderFromRLP(rlp, { common: spec.common, params: SPEC_PARAMS, setHardfork: true })
}

export function readBlock(spec: ChainSpec, store: ChainStore, hash: Uint8Array): Block | undefined {
  const headerRlp = store.getHeaderRlp(hash)
  const body = store.getBodyRlp(hash)
  if (headerRlp === undefined || body === undefined) return undefined
  const header = RLP.decode(headerRlp) as Uint8Array[]
  const parts = RLP.decode(body) as never[]
  return createBlockFromBytesArray([header, ...parts] as never, { common: spec.common, params: SPEC_PARAMS, setHardfork: true })
}
