import type { TypedTransaction } from '@ethereumjs/tx'
import type { BlockTx } from '../codecs/blockTx.js'
import type { EvmTransaction } from '../evm/transaction.js'
import { bytesToWord } from '../evm/words.js'

// A decoded transaction (EthereumJS's codec) as Sponge's EVM takes it: fields as words, its sender recovered.

interface Fields {
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  maxFeePerBlobGas?: bigint
  accessList?: [Uint8Array, Uint8Array[]][]
  blobVersionedHashes?: string[]
  authorizationList?: Uint8Array[][]
}

export function evmTransactionOf(tx: TypedTransaction, sender: Uint8Array): EvmTransaction {
  const f = tx as unknown as Fields
  const price = f.gasPrice ?? f.maxFeePerGas ?? 0n
  return {
    type: tx.type,
    sender: bytesToWord(sender),
    to: tx.to === undefined ? undefined : bytesToWord(tx.to.bytes),
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    value: tx.value,
    data: tx.data,
    gasPrice: price,
    maxFeePerGas: f.maxFeePerGas ?? price,
    maxPriorityFeePerGas: f.maxPriorityFeePerGas ?? price,
    accessList: (f.accessList ?? []).map(([address, keys]) => ({ address: bytesToWord(address), storageKeys: keys.map(bytesToWord) })),
    maxFeePerBlobGas: f.maxFeePerBlobGas ?? 0n,
    blobHashes: (f.blobVersionedHashes ?? []).map((h) => BigInt(h)),
    authorizations: (f.authorizationList ?? []).map(([chainId, address, nonce, yParity, r, s]) => ({
      chainId: bytesToWord(chainId!),
      address: bytesToWord(address!),
      nonce: bytesToWord(nonce!),
      yParity: bytesToWord(yParity!),
      r: bytesToWord(r!),
      s: bytesToWord(s!),
    })),
  }
}

const NO_WORDS: bigint[] = []

/** A block's transaction in the domain's form (codecs/blockTx.ts) as the EVM takes it, its sender recovered. */
export function evmTransactionOfBlockTx(tx: BlockTx, sender: Uint8Array): EvmTransaction {
  return {
    type: tx.type,
    sender: bytesToWord(sender),
    to: tx.to === undefined ? undefined : bytesToWord(tx.to),
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    value: tx.value,
    data: tx.data,
    gasPrice: tx.gasPrice ?? tx.maxFeePerGas,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
    accessList: accessListWords(tx.accessList),
    maxFeePerBlobGas: tx.maxFeePerBlobGas,
    blobHashes: tx.blobVersionedHashes.length === 0 ? NO_WORDS : tx.blobVersionedHashes.map(bytesToWord),
    authorizations: authorizationWords(tx.authorizationList),
  }
}

/** An access list of addresses and keys as bytes, as the EVM takes it. */
export function accessListWords(list: readonly { address: Uint8Array; storageKeys: readonly Uint8Array[] }[]): EvmTransaction['accessList'] {
  return list.map((e) => ({ address: bytesToWord(e.address), storageKeys: e.storageKeys.map(bytesToWord) }))
}

/** EIP-7702 authorizations with their addresses as bytes, as the EVM takes them. */
export function authorizationWords(
  list: readonly { chainId: bigint; address: Uint8Array; nonce: bigint; yParity: bigint; r: bigint; s: bigint }[],
): EvmTransaction['authorizations'] {
  return list.map((a) => ({ chainId: a.chainId, address: bytesToWord(a.address), nonce: a.nonce, yParity: a.yParity, r: a.r, s: a.s }))
}
