import { rawReceiptFromJson } from '../../codecs/rawReceipt.js'
import type { NodeContext } from '../context.js'
import type { BlockRef } from '../../store/chainReader.js'
import { bodyTransactions, rawBlock as rawBlockOf } from '../../store/blockCodec.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'
import { ServerError } from '../errors.js'
import type { BlockReceiptsParams, ByHashParams } from '../../wire/ethParams.js'
import { blockIdOf } from '../blockId.js'
import type { BlockNumberOrTagOrHash, Bytes } from '../../wire/primitives.js'

// debug_getRaw* (execution-apis src/debug): the consensus encodings of stored blocks, headers, receipts and
// transactions. Store reads on the serving thread; the receipts are re-encoded from their stored JSON.

type Ctx = Pick<NodeContext, 'chain' | 'store'>

function blockOf(ctx: Pick<NodeContext, 'chain'>, block: BlockNumberOrTagOrHash): BlockRef {
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) throw new ServerError('block not found')
  return ref
}

export function rawHeader([block]: BlockReceiptsParams, ctx: Ctx): Bytes {
  return bytesToHex(ctx.store.getHeaderRlp(blockOf(ctx, block).hash)!)
}

/** RLP [header, transactions, uncles, withdrawals?]. */
export function rawBlock([block]: BlockReceiptsParams, ctx: Ctx): Bytes {
  const hash = blockOf(ctx, block).hash
  return bytesToHex(rawBlockOf(ctx.store.getHeaderRlp(hash)!, ctx.store.getBodyRlp(hash)!))
}

export function rawReceipts([block]: BlockReceiptsParams, ctx: Ctx): Bytes[] {
  const hash = blockOf(ctx, block).hash
  const count = ctx.store.getTxCount(hash) ?? 0
  const decoder = new TextDecoder()
  const out: string[] = []
  for (let i = 0; i < count; i++) out.push(bytesToHex(rawReceiptFromJson(decoder.decode(ctx.store.getReceiptJsonBytes(hash, i)!))))
  return out
}

/**
 * The transaction's bytes as broadcast (typed: type byte then RLP); null when unknown. A pooled blob transaction whose
 * version-0 sidecar is being given its cell proofs is answered in the version-1 wrapper the pool then holds, as geth's
 * pool, which converts before it pools, holds only that one.
 */
export async function rawTransaction([hash]: ByHashParams, ctx: Pick<NodeContext, 'store' | 'txPool'>): Promise<Bytes | null> {
  const stored = (): Bytes | undefined => {
    const loc = ctx.store.getTxLocation(hexToBytes(hash))
    if (loc === undefined) return undefined
    const body = ctx.store.getBodyRlp(loc.blockHash)
    const raw = body === undefined ? undefined : bodyTransactions(body)[loc.index]
    return raw === undefined ? undefined : bytesToHex(raw)
  }
  const pool = ctx.txPool
  const found = stored()
  if (found !== undefined || pool === undefined || pool.get(hash) === undefined) return found ?? null
  await pool.cellProofsMade(hash)
  // Included meanwhile, it is answered from its block.
  const pooled = pool.get(hash)
  return pooled === undefined ? (stored() ?? null) : bytesToHex(pooled.raw)
}
