import type { Address } from '@ethereumjs/util'
import { type TypedTransaction, isAccessList2930Tx, isBlob4844Tx, isEOACode7702Tx, isFeeMarket1559Tx, isLegacyTx } from '@ethereumjs/tx'
import { type JsonWriter, jsonText } from './jsonWriter.js'

export interface TxContext {
  blockHash: Uint8Array
  blockNumber: bigint
  blockTimestamp: bigint
  index: number
  baseFee: bigint | undefined
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
export function writeTransactionJson(w: JsonWriter, tx: TypedTransaction, from: Uint8Array, ctx: TxContext | undefined): void {
  const type = tx.type
  w.text('{"blockHash":')
  if (ctx === undefined) w.text('null,"blockNumber":null,"blockTimestamp":null')
  else {
    w.hex(ctx.blockHash)
    w.text(',"blockNumber":')
    w.quantity(ctx.blockNumber)
    w.text(',"blockTimestamp":')
    w.quantity(ctx.blockTimestamp)
  }
  w.text(',"from":')
  w.hex(from)
  w.text(',"gas":')
  w.quantity(tx.gasLimit)
  w.text(',"gasPrice":')
  w.quantity(effectiveGasPrice(tx, ctx?.baseFee))
  if (isFeeMarket1559Tx(tx) || isBlob4844Tx(tx) || isEOACode7702Tx(tx)) {
    w.text(',"maxFeePerGas":')
    w.quantity(tx.maxFeePerGas)
    w.text(',"maxPriorityFeePerGas":')
    w.quantity(tx.maxPriorityFeePerGas)
  }
  if (isBlob4844Tx(tx)) {
    w.text(',"maxFeePerBlobGas":')
    w.quantity(tx.maxFeePerBlobGas)
  }
  w.text(',"hash":')
  w.hex(tx.hash())
  w.text(',"input":')
  w.hex(tx.data)
  w.text(',"nonce":')
  w.quantity(tx.nonce)
  w.text(',"to":')
  w.hexOrNull(tx.to?.bytes)
  w.text(',"transactionIndex":')
  if (ctx === undefined) w.text('null')
  else w.quantity(ctx.index)
  w.text(',"value":')
  w.quantity(tx.value)
  w.text(',"type":')
  w.quantity(type)
  if (type !== 0) {
    w.text(',"accessList":[')
    if ('accessList' in tx) {
      tx.accessList.forEach(([address, keys], i) => {
        w.text(i === 0 ? '{"address":' : ',{"address":')
        w.hex(address)
        w.text(',"storageKeys":')
        w.hexList(keys)
        w.text('}')
      })
    }
    w.text(']')
  }
  if (type !== 0 || tx.supports(155)) {
    w.text(',"chainId":')
    w.quantity(tx.common.chainId())
  }
  if (isBlob4844Tx(tx)) {
    w.text(',"blobVersionedHashes":[')
    tx.blobVersionedHashes.forEach((x, i) => {
      w.text(`${i === 0 ? '' : ','}"${x.toLowerCase()}"`)
    })
    w.text(']')
  }
  if (isEOACode7702Tx(tx)) {
    w.text(',"authorizationList":[')
    tx.authorizationList.forEach(([chainId, address, nonce, yParity, r, s], i) => {
      w.text(i === 0 ? '{"chainId":' : ',{"chainId":')
      w.quantity(rlpInteger(chainId))
      w.text(',"address":')
      w.hex(address)
      w.text(',"nonce":')
      w.quantity(rlpInteger(nonce))
      w.text(',"yParity":')
      w.quantity(rlpInteger(yParity))
      w.text(',"r":')
      w.quantity(rlpInteger(r))
      w.text(',"s":')
      w.quantity(rlpInteger(s))
      w.text('}')
    })
    w.text(']')
  }
  w.text(',"v":')
  w.quantity(tx.v ?? 0n)
  w.text(',"r":')
  w.quantity(tx.r ?? 0n)
  w.text(',"s":')
  w.quantity(tx.s ?? 0n)
  if (type !== 0) {
    w.text(',"yParity":')
    w.quantity(tx.v ?? 0n)
  }
  w.text('}')
}

export const transactionJson = (tx: TypedTransaction, from: Address, ctx: TxContext | undefined): string =>
  jsonText((w) => writeTransactionJson(w, tx, from.bytes, ctx))

/** RLP integer bytes (big-endian, minimal) as a number. */
function rlpInteger(b: Uint8Array): bigint {
  let v = 0n
  for (const x of b) v = (v << 8n) | BigInt(x)
  return v
}
