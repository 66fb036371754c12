import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { addr, arr, h, obj, q } from '../codecs/json.js'
import { keccak256 } from '../crypto/keccak.js'
import type { EvmTransaction } from '../evm/transaction.js'
import { bytesToWord } from '../evm/words.js'
import { accessListWords, authorizationWords } from '../vm/evmTransaction.js'
import type { CallRequest } from './callInput.js'

// A simulated call as the transaction geth's simulator puts in its block: TransactionArgs.ToTransaction with the
// dynamic-fee type as default, after CallDefaults filled in the chain id, nonce, gas and fees — unsigned, its v, r and
// s zero. Its encoding gives the hash the reply lists and the transactions root; its JSON is the reply's full
// transaction. And the message the EVM runs for it (ToMessage).

type AuthorizationList = NonNullable<CallRequest['authorizationList']>

export interface SimTransaction {
  /** 0 when a gas price is given, else 4 with authorizations, 3 with blob hashes, 2 otherwise (never 1). */
  type: 0 | 2 | 3 | 4
  chainId: bigint
  nonce: bigint
  gas: bigint
  gasPrice: bigint
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  to: Uint8Array | undefined
  value: bigint
  data: Uint8Array
  accessList: NonNullable<CallRequest['accessList']>
  maxFeePerBlobGas: bigint
  blobVersionedHashes: Uint8Array[]
  authorizationList: AuthorizationList
}

const NO_BYTES = new Uint8Array()
const q8 = bigIntToUnpaddedBytes

/** The call's transaction, with the nonce and gas the simulator settled on. */
export function simTransaction(c: CallRequest, nonce: bigint, gas: bigint, chainId: bigint): SimTransaction {
  const type = c.gasPrice !== undefined ? 0 : c.authorizationList !== undefined ? 4 : c.blobVersionedHashes !== undefined ? 3 : 2
  return {
    type,
    chainId,
    nonce,
    gas,
    gasPrice: c.gasPrice ?? 0n,
    // CallDefaults fills absent 1559 fields with 0 (an absent tip is not the fee cap, as a wallet would make it).
    maxFeePerGas: c.maxFeePerGas ?? 0n,
    maxPriorityFeePerGas: c.maxPriorityFeePerGas ?? 0n,
    to: c.to,
    value: c.value ?? 0n,
    data: c.data ?? NO_BYTES,
    accessList: c.accessList ?? [],
    maxFeePerBlobGas: c.maxFeePerBlobGas ?? 0n,
    blobVersionedHashes: c.blobVersionedHashes ?? [],
    authorizationList: c.authorizationList ?? [],
  }
}

type RlpItem = Uint8Array | RlpItem[]

/** The transaction as a block body holds it: a legacy one as its RLP list's items, a typed one as its bytes. */
export function bodyItem(tx: SimTransaction): RlpItem {
  const to = tx.to ?? NO_BYTES
  const unsigned = [NO_BYTES, NO_BYTES, NO_BYTES]
  if (tx.type === 0) return [q8(tx.nonce), q8(tx.gasPrice), q8(tx.gas), to, q8(tx.value), tx.data, ...unsigned]
  const accessList = tx.accessList.map((e) => [e.address, e.storageKeys])
  const head = [q8(tx.chainId), q8(tx.nonce), q8(tx.maxPriorityFeePerGas), q8(tx.maxFeePerGas), q8(tx.gas), to, q8(tx.value), tx.data, accessList]
  let fields: RlpItem[]
  if (tx.type === 3) fields = [...head, q8(tx.maxFeePerBlobGas), tx.blobVersionedHashes, ...unsigned]
  else if (tx.type === 4) {
    const auths = tx.authorizationList.map((a) => [q8(a.chainId), a.address, q8(a.nonce), q8(a.yParity), q8(a.r), q8(a.s)])
    fields = [...head, auths, ...unsigned]
  } else fields = [...head, ...unsigned]
  const body = RLP.encode(fields)
  const out = new Uint8Array(body.length + 1)
  out[0] = tx.type
  out.set(body, 1)
  return out
}

/** The transaction's encoding (the transactions trie's value) and hash. */
export function encodeSimTransaction(tx: SimTransaction): { bytes: Uint8Array; hash: Uint8Array } {
  const item = bodyItem(tx)
  const bytes = item instanceof Uint8Array ? item : RLP.encode(item)
  return { bytes, hash: keccak256(bytes) }
}

/** Where a listed transaction sits. */
export interface SimTxPlace {
  hash: Uint8Array
  from: Uint8Array
  blockHash: Uint8Array
  blockNumber: bigint
  blockTimestamp: bigint
  index: number
  baseFee: bigint | undefined
}

/**
 * geth's chain id of an unsigned legacy transaction: derived from its v of 0 as (v - 35) / 2 in uint64 arithmetic,
 * which wraps (types.deriveChainId), and listed since it is not zero.
 */
const LEGACY_UNSIGNED_CHAIN_ID = ((1n << 64n) - 35n) / 2n

/** The transaction as the reply lists it in full (geth's newRPCTransaction, the sender the call's). */
export function simTransactionJson(tx: SimTransaction, at: SimTxPlace): string {
  const typed = tx.type !== 0
  const fields: [string, string | undefined][] = [
    ['blockHash', h(at.blockHash)],
    ['blockNumber', q(at.blockNumber)],
    ['blockTimestamp', q(at.blockTimestamp)],
    ['from', h(at.from)],
    ['gas', q(tx.gas)],
    ['gasPrice', q(typed ? paidPrice(tx, at.baseFee) : tx.gasPrice)],
  ]
  if (typed) fields.push(['maxFeePerGas', q(tx.maxFeePerGas)], ['maxPriorityFeePerGas', q(tx.maxPriorityFeePerGas)])
  if (tx.type === 3) fields.push(['maxFeePerBlobGas', q(tx.maxFeePerBlobGas)])
  fields.push(
    ['hash', h(at.hash)],
    ['input', h(tx.data)],
    ['nonce', q(tx.nonce)],
    ['to', addr(tx.to)],
    ['transactionIndex', q(at.index)],
    ['value', q(tx.value)],
    ['type', q(tx.type)],
  )
  if (typed) {
    const list = tx.accessList.map((e) =>
      obj([
        ['address', h(e.address)],
        ['storageKeys', arr(e.storageKeys.map(h))],
      ]),
    )
    fields.push(['accessList', arr(list)])
  }
  fields.push(['chainId', q(typed ? tx.chainId : LEGACY_UNSIGNED_CHAIN_ID)])
  if (tx.type === 3) fields.push(['blobVersionedHashes', arr(tx.blobVersionedHashes.map(h))])
  if (tx.type === 4 && tx.authorizationList.length > 0) {
    const list = tx.authorizationList.map((a) =>
      obj([
        ['chainId', q(a.chainId)],
        ['address', h(a.address)],
        ['nonce', q(a.nonce)],
        ['yParity', q(a.yParity)],
        ['r', q(a.r)],
        ['s', q(a.s)],
      ]),
    )
    fields.push(['authorizationList', arr(list)])
  }
  fields.push(['v', '"0x0"'], ['r', '"0x0"'], ['s', '"0x0"'])
  if (typed) fields.push(['yParity', '"0x0"'])
  return obj(fields)
}

/** What a typed transaction pays per gas in a block with this base fee: min(tip + base fee, fee cap). */
function paidPrice(tx: SimTransaction, baseFee: bigint | undefined): bigint {
  if (baseFee === undefined) return tx.maxFeePerGas
  const price = tx.maxPriorityFeePerGas + baseFee
  return price < tx.maxFeePerGas ? price : tx.maxFeePerGas
}

/**
 * The message the EVM runs for the call (geth's ToMessage at the block's base fee, undefined before London): a gas
 * price is the fee cap and tip too; else the 1559 fields (0 when absent) pay min(tip + base fee, fee cap), or
 * nothing when both are 0. Its type says which checks and rules apply: authorizations, blobs, 1559 fees.
 */
export function simMessage(c: CallRequest, tx: SimTransaction, sender: bigint, baseFee: bigint | undefined): EvmTransaction {
  let gasPrice: bigint
  let feeCap: bigint
  let tip: bigint
  if (baseFee === undefined || c.gasPrice !== undefined) {
    gasPrice = c.gasPrice ?? 0n
    feeCap = gasPrice
    tip = gasPrice
  } else {
    feeCap = tx.maxFeePerGas
    tip = tx.maxPriorityFeePerGas
    const paid = tip + baseFee
    gasPrice = feeCap === 0n && tip === 0n ? 0n : paid < feeCap ? paid : feeCap
  }
  const type =
    c.authorizationList !== undefined ? 4 : c.blobVersionedHashes !== undefined ? 3 : baseFee !== undefined && c.gasPrice === undefined ? 2 : 0
  return {
    type,
    sender,
    to: c.to === undefined ? undefined : bytesToWord(c.to),
    nonce: tx.nonce,
    gasLimit: tx.gas,
    value: tx.value,
    data: tx.data,
    gasPrice,
    maxFeePerGas: feeCap,
    maxPriorityFeePerGas: tip,
    accessList: accessListWords(tx.accessList),
    maxFeePerBlobGas: tx.maxFeePerBlobGas,
    blobHashes: tx.blobVersionedHashes.map(bytesToWord),
    authorizations: authorizationWords(tx.authorizationList),
  }
}
