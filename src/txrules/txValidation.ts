import { NetworkWrapperType, type TypedTransaction, createBlob4844TxFromSerializedNetworkWrapper, isBlob4844Tx } from '@ethereumjs/tx'
import { type ChainSpec, SPEC_PARAMS } from '../chain/spec.js'
import { readHeader } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import { transactionJson } from '../codecs/transaction.js'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, concatBytes, hexToBytes } from '../util/hex.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { bytesToWord } from '../evm/words.js'
import { effectiveTipAt, maxFeeOf } from '../exec/fees.js'
import { checkTxAgainstState } from './txChecks.js'
import { validTx } from './txRules.js'

/** What the pool needs to know of a transaction that passed validation. */
export interface ValidatedTx {
  hash: string
  sender: string
  /** The sender's public key (64 bytes), kept by the pool for newPayload. */
  senderKey: Uint8Array
  nonce: string
  gasLimit: string
  maxFee: string
  maxPriorityFee: string
  type: number
  /** The sender's nonce on the head state. */
  stateNonce: string
  /** eth_getTransactionByHash's reply while the transaction is pending. */
  json: string
  /** A blob transaction's sidecar, blob by blob (engine_getBlobsV1/V2 serve it from the pool). */
  blobs?: PooledBlob[]
  /** The encoding to pool instead of the one received: a pre-Osaka sidecar given its cell proofs. */
  converted?: Uint8Array
}

export interface PooledBlob {
  versionedHash: string
  blob: Uint8Array
  /** One KZG proof (sidecar version 0, Cancun/Prague) or the blob's 128 cell proofs (version 1, Osaka). */
  proofs: Uint8Array[]
  cellProofs: boolean
}

/** The sidecar of a blob transaction in its network wrapper, per blob. */
function sidecarOf(tx: TypedTransaction): PooledBlob[] | undefined {
  if (!isBlob4844Tx(tx) || tx.blobs === undefined) return undefined
  const cellProofs = tx.networkWrapperVersion === NetworkWrapperType.EIP7594
  const proofs = (tx.kzgProofs ?? []).map((p) => hexToBytes(p))
  const per = cellProofs ? proofs.length / tx.blobs.length : 1
  return tx.blobs.map((blob, i) => ({
    versionedHash: tx.blobVersionedHashes[i]!.toLowerCase(),
    blob: hexToBytes(blob),
    proofs: proofs.slice(i * per, (i + 1) * per),
    cellProofs,
  }))
}

/**
 * eth_sendRawTransaction's checks, run in a worker: the rules of the next block (txRules.ts, shared with the builder:
 * decoding, signature, gas, EIP-7623's floor, …; a blob transaction must carry its sidecar, checked with KZG), then
 * the sender's nonce and balance on the head state, with geth's messages.
 */
export async function validateRawTx(
  spec: ChainSpec,
  store: ChainStore,
  evmConfig: EvmConfig,
  raw: Uint8Array,
  headHash: Uint8Array,
): Promise<ValidatedTx> {
  const head = readHeader(spec, store, headHash)
  if (head === undefined) throw new Error('head block missing')
  // The transaction is validated against the rules of the next block, and the head's gas limit (as geth's pool).
  const common = spec.commonAt(head.number + 1n, head.timestamp + 12n)
  let { tx, sender } = validTx(raw, { common, gasLimit: head.gasLimit }, 'required')
  const converted = withCellProofs(tx)
  if (converted !== undefined) tx = createBlob4844TxFromSerializedNetworkWrapper(converted, { common, params: SPEC_PARAMS })
  const account = evmConfig.stateAt(head.stateRoot).account(bytesToWord(sender))
  // Pool admission does not need the fee cap to cover the next base fee (the transaction can wait for it).
  checkTxAgainstState(tx, sender, account, { baseFeePerGas: undefined }, false)
  return {
    hash: bytesToHex(tx.hash()),
    sender: bytesToHex(sender),
    senderKey: tx.getSenderPublicKey(),
    nonce: `0x${tx.nonce.toString(16)}`,
    gasLimit: `0x${tx.gasLimit.toString(16)}`,
    maxFee: `0x${maxFeeOf(tx).toString(16)}`,
    maxPriorityFee: `0x${effectiveTipAt(tx, undefined).toString(16)}`,
    type: tx.type,
    stateNonce: `0x${(account?.nonce ?? 0n).toString(16)}`,
    json: transactionJson(tx, tx.getSenderAddress(), undefined),
    ...(isBlob4844Tx(tx) && tx.blobs !== undefined ? { blobs: sidecarOf(tx)! } : {}),
    ...(converted === undefined ? {} : { converted }),
  }
}

/**
 * A blob transaction whose sidecar carries blob proofs (version 0) where the next block is Osaka's: the builder
 * could never include it, so it is re-wrapped with each blob's cell proofs (version 1), as geth converts it.
 * Undefined for anything else.
 */
function withCellProofs(tx: TypedTransaction): Uint8Array | undefined {
  if (!isBlob4844Tx(tx) || tx.blobs === undefined || !tx.common.isActivatedEIP(7594)) return undefined
  if (tx.networkWrapperVersion === NetworkWrapperType.EIP7594) return undefined
  const kzg = tx.common.customCrypto.kzg
  if (kzg === undefined) throw new Error('no KZG backend')
  const cellProofs = tx.blobs.flatMap((blob) => kzg.computeCellsAndProofs!(blob)[1])
  const wrapper = RLP.encode([
    tx.raw() as Uint8Array[],
    Uint8Array.of(NetworkWrapperType.EIP7594),
    tx.blobs.map(hexToBytes),
    (tx.kzgCommitments ?? []).map(hexToBytes),
    cellProofs.map(hexToBytes),
  ])
  return concatBytes(Uint8Array.of(3), wrapper)
}
