import type { ChainSpec } from '../chain/spec.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { keccak256 } from '../crypto/keccak.js'
import { HeaderView } from '../store/headerView.js'
import type { ChainStore } from '../store/chainStore.js'
import { writeTransactionJson } from '../codecs/transaction.js'
import { jsonText } from '../codecs/jsonWriter.js'
import { RLP } from '@ethereumjs/rlp'
import { bytesToHex, concatBytes } from '../util/hex.js'
import { CELLS_PER_BLOB, type SidecarProofs } from '../crypto/kzgSidecar.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import { bytesToWord } from '../evm/words.js'
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
  /** A blob transaction's sidecar, its shape checked: its KZG proofs are checked next, on the KZG thread. */
  sidecar?: UncheckedSidecar
}

/**
 * The signer of a transaction this node signed itself (the dev wallet's eth_sendTransaction): its address and public
 * key are known, and its signature, made a moment ago with its key, is not recovered again.
 */
export interface KnownSigner {
  address: Uint8Array
  /** 64 bytes, as a recovery gives it. */
  publicKey: Uint8Array
}

/** Each key's signer, derived once (a point multiplication and a hash): the dev wallet's few keys, all public. */
const signers = new Map<string, KnownSigner>()

/** The account a key signs for, as a recovery of its signatures gives it. */
export function knownSigner(key: Uint8Array): KnownSigner {
  const id = bytesToHex(key)
  let signer = signers.get(id)
  if (signer === undefined) {
    const publicKey = secp256k1.getPublicKey(key, false).subarray(1)
    signer = { address: keccak256(publicKey).subarray(12), publicKey }
    signers.set(id, signer)
  }
  return signer
}

/** A blob transaction's sidecar before its KZG check (crypto/kzgSidecar.ts), with what the pool makes of it. */
export interface UncheckedSidecar extends SidecarProofs {
  /** The transaction without its sidecar (type byte and RLP list), for the version-1 wrapper of a converted one. */
  canonical: Uint8Array
  versionedHashes: string[]
  /** A version-0 sidecar where the next block is Osaka's: it is to be given its cell proofs (geth's ToV1). */
  toCellProofs: boolean
}

export interface PooledBlob {
  versionedHash: string
  blob: Uint8Array
  /** One KZG proof (sidecar version 0, Cancun/Prague) or the blob's 128 cell proofs (version 1, Osaka). */
  proofs: Uint8Array[]
  cellProofs: boolean
}

/**
 * A checked sidecar as the pool keeps it, blob by blob; given `cellProofs` (a version-0 sidecar converted), also the
 * encoding to pool instead of the one received: the version-1 network wrapper, as geth's converted transaction.
 */
export function pooledSidecar(s: UncheckedSidecar, cellProofs: Uint8Array[] | undefined): { blobs: PooledBlob[]; converted?: Uint8Array } {
  const proofs = cellProofs ?? s.proofs
  const per = cellProofs !== undefined || s.version === 1 ? CELLS_PER_BLOB : 1
  const blobs = s.blobs.map((blob, i) => ({
    versionedHash: s.versionedHashes[i]!,
    blob,
    proofs: proofs.slice(i * per, (i + 1) * per),
    cellProofs: per === CELLS_PER_BLOB,
  }))
  if (cellProofs === undefined) return { blobs }
  const rest = RLP.encode([Uint8Array.of(1), s.blobs, s.commitments, cellProofs])
  // The transaction's list goes in as it was encoded; the rest's own list header is replaced by the wrapper's.
  const restItems = rest.subarray(rlpListHeaderLength(rest))
  const body = concatBytes(s.canonical.subarray(1), restItems)
  return { blobs, converted: concatBytes(Uint8Array.of(3), rlpListHeader(body.length), body) }
}

function rlpListHeaderLength(encoded: Uint8Array): number {
  const first = encoded[0]!
  return first <= 0xf7 ? 1 : 1 + first - 0xf7
}

function rlpListHeader(length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(0xc0 + length)
  const size: number[] = []
  for (let l = length; l > 0; l = Math.floor(l / 256)) size.unshift(l % 256)
  return Uint8Array.of(0xf7 + size.length, ...size)
}

/**
 * eth_sendRawTransaction's checks, run in a worker: the rules of the next block (txRules.ts, shared with the builder:
 * decoding, signature, gas, EIP-7623's floor, …; a blob transaction must carry its sidecar, whose shape is checked
 * here and whose proofs the caller checks), then the sender's nonce and balance on the head state, with geth's messages.
 */
export async function validateRawTx(
  spec: ChainSpec,
  store: ChainStore,
  evmConfig: EvmConfig,
  raw: Uint8Array,
  headHash: Uint8Array,
  signer?: KnownSigner,
): Promise<ValidatedTx> {
  const head = HeaderView.read(store, headHash)
  if (head === undefined) throw new Error('head block missing')
  // The transaction is validated against the rules of the next block, and the head's gas limit (as geth's pool).
  const common = spec.commonAfter(head)
  const { tx, sender, senderKey, decoded } = validTx(raw, { common, gasLimit: head.gasLimit }, 'required', signer?.address)
  const account = evmConfig.stateAt(head.stateRoot).account(bytesToWord(sender))
  // Pool admission does not need the fee cap to cover the next base fee (the transaction can wait for it).
  checkTxAgainstState(tx, sender, account, { baseFeePerGas: undefined }, false)
  const wrapped = decoded.wrapped
  return {
    hash: bytesToHex(tx.hash),
    sender: bytesToHex(sender),
    senderKey: signer?.publicKey ?? senderKey!,
    nonce: `0x${tx.nonce.toString(16)}`,
    gasLimit: `0x${tx.gasLimit.toString(16)}`,
    maxFee: `0x${tx.maxFeePerGas.toString(16)}`,
    maxPriorityFee: `0x${tx.maxPriorityFeePerGas.toString(16)}`,
    type: tx.type,
    stateNonce: `0x${(account?.nonce ?? 0n).toString(16)}`,
    json: jsonText((w) => writeTransactionJson(w, tx, sender, undefined)),
    ...(wrapped === undefined
      ? {}
      : {
          sidecar: {
            ...wrapped.sidecar,
            canonical: wrapped.canonical,
            versionedHashes: tx.blobVersionedHashes.map((h) => bytesToHex(h)),
            toCellProofs: wrapped.sidecar.version === 0 && common.isActivatedEIP(7594),
          },
        }),
  }
}
