import { RLP } from '@ethereumjs/rlp'
import { keccak256 } from '../crypto/keccak.js'
import type { EvmTransaction } from '../evm/transaction.js'
import { bytesToWord } from '../evm/words.js'
import { bodyTransactions } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'

// A stored block's transactions as Sponge's EVM takes them, decoded from the body's bytes without building
// EthereumJS transactions, each with its sender from the reply JSON written when the block was executed (no
// signature to recover again: that was a trace's largest cost).

export interface StoredTransaction {
  hash: Uint8Array
  tx: EvmTransaction
}

type Item = Uint8Array | Item[]

const word = (b: Item): bigint => bytesToWord(b as Uint8Array)
const FROM = Buffer.from('"from":"0x')

/** The block's transactions in order; undefined when its body is not stored. */
export function storedTransactions(store: ChainStore, blockHash: Uint8Array): StoredTransaction[] | undefined {
  const body = store.getBodyRlp(blockHash)
  if (body === undefined) return undefined
  return bodyTransactions(body).map((raw, i) => {
    const json = store.getTxJsonBytes(blockHash, i)
    if (json === undefined) throw new Error(`transaction ${i} of block ${Buffer.from(blockHash).toString('hex')} has no stored reply`)
    return { hash: keccak256(raw), tx: decodeTransaction(raw, senderOf(json)) }
  })
}

/** The sender the stored reply names. */
function senderOf(json: Uint8Array): bigint {
  const at = Buffer.from(json.buffer, json.byteOffset, json.byteLength).indexOf(FROM)
  if (at < 0) throw new Error('stored transaction reply without "from"')
  const start = at + FROM.length
  return BigInt(`0x${Buffer.from(json.buffer, json.byteOffset + start, 40).toString('latin1')}`)
}

/** A signed transaction's bytes (a legacy one's RLP list, a typed one's type byte and list) as the EVM's message. */
export function decodeTransaction(raw: Uint8Array, sender: bigint): EvmTransaction {
  const type = raw[0]! >= 0xc0 ? 0 : raw[0]!
  const f = RLP.decode(type === 0 ? raw : raw.subarray(1)) as Item[]
  // The fields after the chain id, at their places for each type.
  const at = type === 0 ? 0 : 1
  const nonce = word(f[at]!)
  let gasPrice: bigint
  let maxFee: bigint
  let tip: bigint
  let next: number
  if (type === 0 || type === 1) {
    gasPrice = maxFee = tip = word(f[at + 1]!)
    next = at + 2
  } else {
    tip = word(f[at + 1]!)
    maxFee = gasPrice = word(f[at + 2]!)
    next = at + 3
  }
  const to = f[next + 1] as Uint8Array
  const accessList =
    type === 0 ? [] : (f[next + 4] as Item[][]).map(([address, keys]) => ({ address: word(address!), storageKeys: (keys as Item[]).map(word) }))
  return {
    type,
    sender,
    to: to.length === 0 ? undefined : bytesToWord(to),
    nonce,
    gasLimit: word(f[next]!),
    value: word(f[next + 2]!),
    data: f[next + 3] as Uint8Array,
    gasPrice,
    maxFeePerGas: maxFee,
    maxPriorityFeePerGas: tip,
    accessList,
    maxFeePerBlobGas: type === 3 ? word(f[next + 5]!) : 0n,
    blobHashes: type === 3 ? (f[next + 6] as Item[]).map(word) : [],
    authorizations:
      type === 4
        ? (f[next + 5] as Item[][]).map(([chainId, address, authNonce, yParity, r, s]) => ({
            chainId: word(chainId!),
            address: word(address!),
            nonce: word(authNonce!),
            yParity: word(yParity!),
            r: word(r!),
            s: word(s!),
          }))
        : [],
  }
}
