import { HeaderView } from '../../store/headerView.js'
import type { NodeContext } from '../context.js'
import type { BlockRef } from '../../store/chainReader.js'
import { MAX_TX_INDEX } from '../../store/layout.js'
import type { TxReplyKind } from '../../store/txReplies.js'
import { hexToBytes, toQuantity } from '../../util/hex.js'
import { RawJson } from '../reply.js'
import type {
  BlockByHashParams,
  BlockByNumberParams,
  BlockNumberParams,
  BlockReceiptsParams,
  ByHashParams,
  TxByHashAndIndexParams,
  TxByNumberAndIndexParams,
  NoParams,
} from '../../wire/ethParams.js'
import type { Quantity } from '../../wire/primitives.js'
import type { BlockResult, ReceiptResult, TransactionResult } from '../../wire/results.js'
import { blockIdOf } from '../blockId.js'

// Read methods served from the store's pre-encoded JSON: no block is decoded or re-executed to answer them.
// They run on the serving thread: an LMDB read costs microseconds, a pool round trip tens (bench/micro). A reply of
// one store value uses the store's transient views, which the envelope copies into the reply before the next read.

type Ctx = Pick<NodeContext, 'chain' | 'store'>

export function chainId(_: NoParams, ctx: Pick<NodeContext, 'spec'>): Quantity {
  return toQuantity(ctx.spec.chainId)
}

export function blockNumber(_: NoParams, ctx: Pick<NodeContext, 'chain'>): Quantity {
  return toQuantity(ctx.chain.headNumber())
}

function txAt(ctx: Pick<NodeContext, 'store'>, ref: BlockRef | undefined, index: string): RawJson<TransactionResult> | null {
  if (ref === undefined) return null
  const i = BigInt(index)
  if (i > MAX_TX_INDEX) return null
  const bytes = ctx.store.txJsonView(ref.hash, Number(i))
  return bytes === undefined ? null : RawJson.of<TransactionResult>(bytes)
}

export function txByBlockNumberAndIndex([block, index]: TxByNumberAndIndexParams, ctx: Ctx): RawJson<TransactionResult> | null {
  return txAt(ctx, ctx.chain.resolve(blockIdOf(block)), index)
}

export function txByBlockHashAndIndex([hash, index]: TxByHashAndIndexParams, ctx: Ctx): RawJson<TransactionResult> | null {
  return txAt(ctx, ctx.chain.byHash(hexToBytes(hash)), index)
}

/** A mined transaction from the store, else a pooled one (with null block fields), else null. */
export function txByHash([hash]: ByHashParams, ctx: Pick<NodeContext, 'txReplies' | 'txPool'>): RawJson<TransactionResult> | null {
  const mined = ctx.txReplies.get('transaction', hash)
  if (mined !== undefined) return RawJson.of<TransactionResult>(mined)
  const pooled = ctx.txPool?.get(hash)
  return pooled === undefined ? null : RawJson.of<TransactionResult>(pooled.json)
}

export function receipt([hash]: ByHashParams, ctx: Pick<NodeContext, 'txReplies'>): RawJson<ReceiptResult> | null {
  const bytes = ctx.txReplies.get('receipt', hash)
  return bytes === undefined ? null : RawJson.of<ReceiptResult>(bytes)
}

/** A by-hash read's kept reply (MethodDef.kept): its one parameter looked up as sent. */
function keptByHash(kind: TxReplyKind, params: readonly unknown[], ctx: Pick<NodeContext, 'txReplies'>): RawJson | undefined {
  const hash = params[0]
  if (params.length !== 1 || typeof hash !== 'string') return undefined
  const bytes = ctx.txReplies.kept(kind, hash)
  return bytes === undefined ? undefined : RawJson.of(bytes)
}

export const keptReceipt = (params: readonly unknown[], ctx: Pick<NodeContext, 'txReplies'>) => keptByHash('receipt', params, ctx)
/** Only a mined transaction is kept: the same answer txByHash gives, which looks in the pool only after the store. */
export const keptTx = (params: readonly unknown[], ctx: Pick<NodeContext, 'txReplies'>) => keptByHash('transaction', params, ctx)

/** The stored receipts as one JSON array. */
function joined(chunks: Uint8Array[]): RawJson<ReceiptResult[]> {
  const out: (string | Uint8Array)[] = ['[']
  chunks.forEach((c, i) => {
    if (i > 0) out.push(',')
    out.push(c)
  })
  out.push(']')
  return new RawJson<ReceiptResult[]>(out)
}

export function blockReceipts([block]: BlockReceiptsParams, ctx: Ctx): RawJson<ReceiptResult[]> | null {
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) return null
  const count = ctx.store.getTxCount(ref.hash) ?? 0
  const chunks: Uint8Array[] = []
  for (let i = 0; i < count; i++) chunks.push(ctx.store.getReceiptJsonBytes(ref.hash, i)!)
  return joined(chunks)
}

/** `"0x…","0x…"` from concatenated 32-byte hashes, hex-encoded in one call. */
function hashListJson(raw: Uint8Array | undefined): string {
  if (raw === undefined || raw.length === 0) return ''
  const hex = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('hex')
  const parts: string[] = []
  for (let i = 0; i < hex.length; i += 64) parts.push(`"0x${hex.slice(i, i + 64)}"`)
  return parts.join(',')
}

function blockReply(ctx: Pick<NodeContext, 'store'>, ref: BlockRef | undefined, full: boolean): RawJson<BlockResult> | null {
  if (ref === undefined) return null
  const prefix = ctx.store.getBlockJson(ref.hash)
  if (prefix === undefined) return null
  const count = ctx.store.getTxCount(ref.hash) ?? 0
  if (!full) return RawJson.of<BlockResult>(prefix, ',"transactions":[', hashListJson(ctx.store.getTxHashesRaw(ref.hash)), ']}')
  const out: (string | Uint8Array)[] = [prefix, ',"transactions":[']
  for (let i = 0; i < count; i++) {
    if (i > 0) out.push(',')
    out.push(ctx.store.getTxJsonBytes(ref.hash, i)!)
  }
  out.push(']}')
  return new RawJson<BlockResult>(out)
}

export function blockByNumber([block, full]: BlockByNumberParams, ctx: Ctx): RawJson<BlockResult> | null {
  return blockReply(ctx, ctx.chain.resolve(blockIdOf(block)), full)
}

export function blockByHash([hash, full]: BlockByHashParams, ctx: Ctx): RawJson<BlockResult> | null {
  return blockReply(ctx, ctx.chain.byHash(hexToBytes(hash)), full)
}

export function txCountByNumber([block]: BlockNumberParams, ctx: Ctx): Quantity | null {
  const ref = ctx.chain.resolve(blockIdOf(block))
  return ref === undefined ? null : toQuantity(ctx.store.getTxCount(ref.hash) ?? 0)
}

export function txCountByHash([hash]: ByHashParams, ctx: Ctx): Quantity | null {
  const ref = ctx.chain.byHash(hexToBytes(hash))
  return ref === undefined ? null : toQuantity(ctx.store.getTxCount(ref.hash) ?? 0)
}

/** The header's timestamp (RLP field 11), for eth_config. */
export function headerTimestamp(ctx: Pick<NodeContext, 'store'>, hash: Uint8Array): bigint {
  return HeaderView.read(ctx.store, hash)!.timestamp
}
