import { type Block, type BlockHeader, createBlockFromBytesArray, createBlockHeaderFromRLP } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import type { ChainSpec } from '../chain/spec.js'
import type { ChainStore } from './chainStore.js'

/** The stored body of a block: RLP of [transactions, uncles, withdrawals?], the block's RLP minus its header. */
export function bodyRlp(block: Block): Uint8Array {
  return RLP.encode(block.raw().slice(1) as never)
}

export function readHeader(spec: ChainSpec, store: ChainStore, hash: Uint8Array): BlockHeader | undefined {
  const rlp = store.getHeaderRlp(hash)
  return rlp === undefined ? undefined : createBlockHeaderFromRLP(rlp, { common: spec.common, setHardfork: true })
}

export function readBlock(spec: ChainSpec, store: ChainStore, hash: Uint8Array): Block | undefined {
  const headerRlp = store.getHeaderRlp(hash)
  const body = store.getBodyRlp(hash)
  if (headerRlp === undefined || body === undefined) return undefined
  const header = RLP.decode(headerRlp) as Uint8Array[]
  const parts = RLP.decode(body) as never[]
  return createBlockFromBytesArray([header, ...parts] as never, { common: spec.common, setHardfork: true })
}
