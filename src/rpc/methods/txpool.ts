import { toChecksumAddress } from '@ethereumjs/util'
import { type NodeContext, nodePart } from '../context.js'
import type { PooledTx, TxPool } from '../../txpool/txPool.js'
import { toQuantity } from '../../util/hex.js'
import type { AddressParams, NoParams } from '../../wire/ethParams.js'
import type { RpcResults, TransactionResult, TxPoolContentResult } from '../../wire/results.js'

// txpool_status, txpool_content, txpool_contentFrom, txpool_inspect and eth_pendingTransactions, shaped as geth's
// (txpool namespace: named in --http.api, or dev mode). Transactions as eth_getTransactionByHash shows them pending.

type Ctx = Pick<NodeContext, 'txPool'>
type Split = ReturnType<TxPool['bySenderSplit']>

function grouped<T>(split: Split, kind: 'pending' | 'queued', value: (t: PooledTx) => T): Record<string, Record<string, T>> {
  const out: Record<string, Record<string, T>> = {}
  for (const s of split) {
    const txs = s[kind]
    if (txs.length === 0) continue
    // geth keys the map by address, which it writes with its EIP-55 checksum.
    out[toChecksumAddress(s.sender)] = Object.fromEntries(txs.map((t) => [t.nonce.toString(), value(t)]))
  }
  return out
}

/** A pooled transaction's stored JSON (the codec's, with null block fields), parsed. */
const json = (t: PooledTx): TransactionResult => JSON.parse(t.json) as TransactionResult

export function status(_: NoParams, ctx: Ctx): RpcResults['txpool_status'] {
  const split = nodePart(ctx.txPool).bySenderSplit()
  const count = (k: 'pending' | 'queued') => split.reduce((n, s) => n + s[k].length, 0)
  return { pending: toQuantity(count('pending')), queued: toQuantity(count('queued')) }
}

export function content(_: NoParams, ctx: Ctx): TxPoolContentResult<TransactionResult> {
  const split = nodePart(ctx.txPool).bySenderSplit()
  return { pending: grouped(split, 'pending', json), queued: grouped(split, 'queued', json) }
}

export function contentFrom([address]: AddressParams, ctx: Ctx): RpcResults['txpool_contentFrom'] {
  const split = nodePart(ctx.txPool).bySenderSplit(address.toLowerCase())
  const of = (k: 'pending' | 'queued') => Object.fromEntries((split[0]?.[k] ?? []).map((t) => [t.nonce.toString(), json(t)]))
  return { pending: of('pending'), queued: of('queued') }
}

/** geth's one-line summaries: "<to>: <value> wei + <gas> gas × <price> wei". */
function summary(t: PooledTx): string {
  const tx = JSON.parse(t.json) as { to: string | null; value: string; gas: string; gasPrice?: string; maxFeePerGas?: string }
  const to = tx.to === null ? 'contract creation' : toChecksumAddress(tx.to)
  return `${to}: ${BigInt(tx.value)} wei + ${BigInt(tx.gas)} gas × ${BigInt(tx.maxFeePerGas ?? tx.gasPrice ?? '0x0')} wei`
}

export function inspect(_: NoParams, ctx: Ctx): TxPoolContentResult<string> {
  const split = nodePart(ctx.txPool).bySenderSplit()
  return { pending: grouped(split, 'pending', summary), queued: grouped(split, 'queued', summary) }
}

/** The pending transactions (all of them, as anvil: the node's accounts are the dev accounts, if any). */
export function pendingTransactions(_: NoParams, ctx: Ctx): TransactionResult[] {
  return nodePart(ctx.txPool)
    .bySenderSplit()
    .flatMap((s) => s.pending.map(json))
}
