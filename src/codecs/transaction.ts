import { type TypedTransaction, isAccessList2930Tx, isBlob4844Tx, isEOACode7702Tx } from '@ethereumjs/tx'
import { keccak256 } from '../crypto/keccak.js'
import { hexToBytes } from '../util/hex.js'
import type { BlockTx } from './blockTx.js'
import type { JsonWriter } from './jsonWriter.js'

export interface TxContext {
  blockHash: Uint8Array
  blockNumber: bigint
  blockTimestamp: bigint
  index: number
  baseFee: bigint | undefined
}

/** Price actually paid per gas in a block with this base fee (EIP-1559), or the max fee when not yet in a block. */
export function effectiveGasPrice(tx: BlockTx, baseFee: bigint | undefined): bigint {
  if (tx.gasPrice !== undefined) return tx.gasPrice
  if (baseFee === undefined) return tx.maxFeePerGas
  const tip = tx.maxFeePerGas - baseFee < tx.maxPriorityFeePerGas ? tx.maxFeePerGas - baseFee : tx.maxPriorityFeePerGas
  return baseFee + tip
}

/** A transaction as eth_getTransactionBy* return it (geth's field set), inside a block or pending (ctx undefined). */
export function writeTransactionJson(w: JsonWriter, tx: BlockTx, from: Uint8Array, ctx: TxContext | undefined): void {
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
  if (type >= 2) {
    w.text(',"maxFeePerGas":')
    w.quantity(tx.maxFeePerGas)
    w.text(',"maxPriorityFeePerGas":')
    w.quantity(tx.maxPriorityFeePerGas)
  }
  if (type === 3) {
    w.text(',"maxFeePerBlobGas":')
    w.quantity(tx.maxFeePerBlobGas)
  }
  w.text(',"hash":')
  w.hex(tx.hash)
  w.text(',"input":')
  w.hex(tx.data)
  w.text(',"nonce":')
  w.quantity(tx.nonce)
  w.text(',"to":')
  w.hexOrNull(tx.to)
  w.text(',"transactionIndex":')
  if (ctx === undefined) w.text('null')
  else w.quantity(ctx.index)
  w.text(',"value":')
  w.quantity(tx.value)
  w.text(',"type":')
  w.quantity(type)
  if (type !== 0) {
    w.text(',"accessList":[')
    tx.accessList.forEach(({ address, storageKeys }, i) => {
      w.text(i === 0 ? '{"address":' : ',{"address":')
      w.hex(address)
      w.text(',"storageKeys":')
      w.hexList(storageKeys)
      w.text('}')
    })
    w.text(']')
  }
  if (tx.chainId !== undefined) {
    w.text(',"chainId":')
    w.quantity(tx.chainId)
  }
  if (type === 3) {
    w.text(',"blobVersionedHashes":')
    w.hexList(tx.blobVersionedHashes)
  }
  if (type === 4) {
    w.text(',"authorizationList":[')
    tx.authorizationList.forEach((a, i) => {
      w.text(i === 0 ? '{"chainId":' : ',{"chainId":')
      w.quantity(a.chainId)
      w.text(',"address":')
      w.hex(a.address)
      w.text(',"nonce":')
      w.quantity(a.nonce)
      w.text(',"yParity":')
      w.quantity(a.yParity)
      w.text(',"r":')
      w.quantity(a.r)
      w.text(',"s":')
      w.quantity(a.s)
      w.text('}')
    })
    w.text(']')
  }
  w.text(',"v":')
  w.quantity(tx.v)
  w.text(',"r":')
  w.quantity(tx.r)
  w.text(',"s":')
  w.quantity(tx.s)
  if (type !== 0) {
    w.text(',"yParity":')
    w.quantity(tx.v)
  }
  w.text('}')
}

/**
 * An EthereumJS transaction in the domain's form, for the replies of what was not decoded from a block's bytes (a
 * pooled transaction). An unsigned one reads as signed with zeros.
 */
export function blockTxOf(tx: TypedTransaction): BlockTx {
  const raw = tx.serialize()
  const gasPrice = isLegacyOrAccessList(tx) ? tx.gasPrice : undefined
  const fees = tx as TypedTransaction & { maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }
  return {
    type: tx.type,
    raw,
    hash: tx.isSigned() ? tx.hash() : keccak256(raw),
    chainId: tx.type !== 0 || tx.supports(155) ? tx.common.chainId() : undefined,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    gasPrice,
    maxFeePerGas: gasPrice ?? fees.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: gasPrice ?? fees.maxPriorityFeePerGas ?? 0n,
    maxFeePerBlobGas: isBlob4844Tx(tx) ? tx.maxFeePerBlobGas : 0n,
    to: tx.to?.bytes,
    value: tx.value,
    data: tx.data,
    accessList: 'accessList' in tx ? tx.accessList.map(([address, storageKeys]) => ({ address, storageKeys })) : [],
    blobVersionedHashes: isBlob4844Tx(tx) ? tx.blobVersionedHashes.map(hexToBytes) : [],
    authorizationList: isEOACode7702Tx(tx)
      ? tx.authorizationList.map(([chainId, address, nonce, yParity, r, s]) => ({
          chainId: rlpInteger(chainId!),
          address: address!,
          nonce: rlpInteger(nonce!),
          yParity: rlpInteger(yParity!),
          r: rlpInteger(r!),
          s: rlpInteger(s!),
        }))
      : [],
    v: tx.v ?? 0n,
    r: tx.r ?? 0n,
    s: tx.s ?? 0n,
  }
}

const isLegacyOrAccessList = (tx: TypedTransaction): tx is TypedTransaction & { gasPrice: bigint } => tx.type === 0 || isAccessList2930Tx(tx)

/** RLP integer bytes (big-endian, minimal) as a number. */
function rlpInteger(b: Uint8Array): bigint {
  let v = 0n
  for (const x of b) v = (v << 8n) | BigInt(x)
  return v
}
