import type { Address } from '@ethereumjs/util'
import { type TypedTransaction, isAccessList2930Tx, isBlob4844Tx, isEOACode7702Tx, isFeeMarket1559Tx, isLegacyTx } from '@ethereumjs/tx'
import { addr, arr, h, obj, q } from './json.js'

export interface TxContext {
  blockHash: Uint8Array
  blockNumber: bigint
  blockTimestamp: bigint
  index: number
  baseFee: bigint | undefined
}

function accessListJson(tx: TypedTransaction): string {
  if (!('accessList' in tx)) return '[]'
  return arr(
    tx.accessList.map(([address, keys]) =>
      obj([
        ['address', h(address)],
        ['storageKeys', arr(keys.map(h))],
      ]),
    ),
  )
}

/** Price actually paid per gas in a block with this base fee (EIP-1559), or the max fee when not yet in a block. */
export function effectiveGasPrice(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  if (isLegacyTx(tx) || isAccessList2930Tx(tx)) return tx.gasPrice
  const t = tx as TypedTransaction & { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  if (baseFee === undefined) return t.maxFeePerGas
  const tip = t.maxFeePerGas - baseFee < t.maxPriorityFeePerGas ? t.maxFeePerGas - baseFee : t.maxPriorityFeePerGas
  return baseFee + tip
}

/** A transaction as eth_getTransactionBy* return it (geth's field set), inside a block or pending (ctx undefined). */
export function transactionJson(tx: TypedTransaction, from: Address, ctx: TxContext | undefined): string {
  const type = tx.type
  const fields: [string, string | undefined][] = [
    ['blockHash', ctx === undefined ? 'null' : h(ctx.blockHash)],
    ['blockNumber', ctx === undefined ? 'null' : q(ctx.blockNumber)],
    ['blockTimestamp', ctx === undefined ? 'null' : q(ctx.blockTimestamp)],
    ['from', h(from.bytes)],
    ['gas', q(tx.gasLimit)],
    ['gasPrice', q(effectiveGasPrice(tx, ctx?.baseFee))],
  ]
  if (isFeeMarket1559Tx(tx) || isBlob4844Tx(tx) || isEOACode7702Tx(tx)) {
    fields.push(['maxFeePerGas', q(tx.maxFeePerGas)], ['maxPriorityFeePerGas', q(tx.maxPriorityFeePerGas)])
  }
  if (isBlob4844Tx(tx)) fields.push(['maxFeePerBlobGas', q(tx.maxFeePerBlobGas)])
  fields.push(
    ['hash', h(tx.hash())],
    ['input', h(tx.data)],
    ['nonce', q(tx.nonce)],
    ['to', addr(tx.to?.bytes)],
    ['transactionIndex', ctx === undefined ? 'null' : q(ctx.index)],
    ['value', q(tx.value)],
    ['type', q(type)],
  )
  if (type !== 0) fields.push(['accessList', accessListJson(tx)])
  if (type !== 0 || tx.supports(155)) fields.push(['chainId', q(tx.common.chainId())])
  if (isBlob4844Tx(tx)) fields.push(['blobVersionedHashes', arr(tx.blobVersionedHashes.map((x) => `"${x.toLowerCase()}"`))])
  if (isEOACode7702Tx(tx)) {
    fields.push([
      'authorizationList',
      arr(
        tx.authorizationList.map(([chainId, address, nonce, yParity, r, s]) =>
          obj([
            ['chainId', qb(chainId)],
            ['address', h(address)],
            ['nonce', qb(nonce)],
            ['yParity', qb(yParity)],
            ['r', qb(r)],
            ['s', qb(s)],
          ]),
        ),
      ),
    ])
  }
  fields.push(['v', q(tx.v ?? 0n)], ['r', q(tx.r ?? 0n)], ['s', q(tx.s ?? 0n)])
  if (type !== 0) fields.push(['yParity', q(tx.v ?? 0n)])
  return obj(fields)
}

/** RLP integer bytes (big-endian, minimal) as a Quantity. */
function qb(b: Uint8Array): string {
  let v = 0n
  for (const x of b) v = (v << 8n) | BigInt(x)
  return q(v)
}
