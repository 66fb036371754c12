import type { Common } from '@ethereumjs/common'
import { forkOfHardfork } from '../chain/evmFork.js'
import { type EvmTransaction, intrinsicGas } from '../evm/transaction.js'
import { TxRejectedError } from '../exec/errors.js'
import { evmTransactionOfBlockTx } from '../vm/evmTransaction.js'
import { CELLS_PER_BLOB, type SidecarProofs } from '../crypto/kzgSidecar.js'
import { sha256 } from '../crypto/sha256.js'
import { bytesToHex } from '../util/hex.js'
import { type DecodedTx, decodeTxFields, decodedTxOf } from '../exec/txDecode.js'
import { type SignedTx, addressOfKey, recoverSenderKey, signedTxOf, signingRulesOf } from '../exec/blockTx.js'

// The rules a transaction must meet to go into a block, checked in geth's order (core/txpool/validation.go
// ValidateTransaction) with geth's messages: the ONE validation that the pool's admission (txValidation.ts) and the
// builder's inclusion (engine/worker/payloadBuilder.ts) share, so that whatever the pool accepts the builder can
// include. Checks against state (nonce, balance, base fee) follow in txChecks.ts, shared the same way.

/** The block a transaction would go into: its fork's rules and chain id, and its gas limit. */
export interface NextBlock {
  readonly common: Common
  readonly gasLimit: bigint
}

/**
 * A transaction that meets the rules: in the domain's form (a blob transaction's without its sidecar, as a block holds
 * it), its sender, and what was read from its bytes — a blob transaction's sidecar among it, its shape checked, its KZG
 * proofs not —, and the EVM's transaction of it.
 */
export interface ValidTx {
  readonly tx: SignedTx
  readonly sender: Uint8Array
  /** The sender's public key when it was recovered here (no known sender given). */
  readonly senderKey: Uint8Array | undefined
  readonly decoded: DecodedTx
  readonly evm: EvmTransaction
}

const U256_MAX = 2n ** 256n - 1n
const U64_MAX = 2n ** 64n - 1n
const INVALID_SIG = 'invalid sender: invalid transaction v, r, s values'

/** The transaction types a fork accepts (geth: "pool not yet in <fork>"). */
function typeNotYet(type: number, common: Common): string | undefined {
  if (type === 1 && !common.isActivatedEIP(2930)) return 'Berlin'
  if (type === 2 && !common.isActivatedEIP(1559)) return 'London'
  if (type === 3 && !common.isActivatedEIP(4844)) return 'Cancun'
  if (type === 4 && !common.isActivatedEIP(7702)) return 'Prague'
  return undefined
}

/**
 * A transaction's bytes against the rules of the block it would go into, in geth's order: decoding (rlp: …), the
 * type's fork, EIP-3860's init code size, EIP-7825's gas cap, the block's gas limit, fee sizes, tip within the fee
 * cap, the sender (chain id and signature), the nonce's maximum, intrinsic gas and EIP-7623's floor. `sidecar`:
 * whether a blob transaction must come in its network wrapper (the pool's admission) or may come without (a block
 * built from given transactions); 'optionalAnyVersion' also takes a version-0 sidecar where cell proofs are due (a dev
 * block, whose bundle nobody reads, built while the pool gives it cell proofs: BuildInput.bundleUnread). Throws
 * TxRejectedError with geth's message.
 */
export function validTx(
  raw: Uint8Array,
  next: NextBlock,
  sidecar: 'required' | 'optional' | 'optionalAnyVersion',
  /**
   * The sender already recovered from these very bytes (the pool's, at admission), or the dev wallet's account that
   * signed them: the signature is not recovered again.
   */
  knownSender?: Uint8Array,
): ValidTx {
  const { common } = next
  const fields = decodeTxFields(raw)
  const d = decodedTxOf(fields)
  const fork = typeNotYet(d.type, common)
  if (fork !== undefined)
    throw new TxRejectedError(`transaction type not supported: type ${d.type} rejected, pool not yet in ${fork}`, 'txTypeNotSupported')
  if (d.to === undefined && common.isActivatedEIP(3860)) {
    const limit = common.param('maxInitCodeSize')
    if (BigInt(d.data.length) > limit) {
      throw new TxRejectedError(`max initcode size exceeded: code size ${d.data.length} limit ${limit}`, 'maxInitCodeSizeExceeded')
    }
  }
  if (common.isActivatedEIP(7825)) {
    const cap = common.param('maxTransactionGasLimit')
    if (d.gasLimit > cap) throw new TxRejectedError(`transaction gas limit too high (cap: ${cap}, tx: ${d.gasLimit})`, 'gasLimitTooHigh')
  }
  if (d.gasLimit > next.gasLimit) throw new TxRejectedError('exceeds block gas limit', 'exceedsBlockGasLimit')
  if (d.feeCap > U256_MAX) throw new TxRejectedError('max fee per gas higher than 2^256-1', 'feeCapVeryHigh')
  if (d.tipCap > U256_MAX) throw new TxRejectedError('max priority fee per gas higher than 2^256-1', 'tipVeryHigh')
  if (d.feeCap < d.tipCap) throw new TxRejectedError('max priority fee per gas higher than max fee per gas', 'tipAboveFeeCap')
  // geth's signer checks before recovery (the block path's own), and the transaction as a block holds it.
  const tx = signedTxOf(fields, d.wrapped?.canonical ?? raw, signingRulesOf(common))
  if (d.nonce === U64_MAX) throw new TxRejectedError('nonce has max value', 'nonceMax')
  if (d.type === 4 && d.authorizations === 0)
    throw new TxRejectedError('set code tx must have at least one authorization tuple', 'invalidTransaction')
  if (d.type === 3) {
    if (d.sidecarVersion === undefined && sidecar === 'required')
      throw new TxRejectedError('missing sidecar in blob transaction', 'invalidTransaction')
    // A version-0 sidecar where cell proofs are due is converted by the pool (txpool/txSubmission.ts), as geth
    // converts it at submission; only a dev block, which serves no consensus client, is built with one.
    if (d.sidecarVersion === 0 && sidecar === 'optional' && common.isActivatedEIP(7594)) {
      throw new TxRejectedError('unexpected sidecar version, want: 1, got: 0', 'invalidTransaction')
    }
    if (d.sidecarVersion === 1 && !common.isActivatedEIP(7594)) {
      throw new TxRejectedError('unexpected sidecar version, want: 0, got: 1', 'invalidTransaction')
    }
  }
  if (d.type === 3) checkBlobCount(tx.blobVersionedHashes.length, common)
  if (d.wrapped !== undefined) checkSidecarShape(d.wrapped.sidecar, tx.blobVersionedHashes)
  let sender = knownSender
  let senderKey: Uint8Array | undefined
  if (sender === undefined) {
    senderKey = recoverSenderKey(tx)
    if (senderKey === undefined) throw new TxRejectedError(INVALID_SIG, 'invalidSender')
    sender = addressOfKey(senderKey)
  }
  tx.sender = sender
  const evm = evmTransactionOfBlockTx(tx, sender)
  // The EVM's own computation, the one its transaction processing charges (evm/transaction.ts).
  const { gas, floor: floorGas } = intrinsicGas(evm, forkOfHardfork(common.hardfork()))
  const intrinsic = BigInt(gas)
  if (d.gasLimit < intrinsic) throw new TxRejectedError(`intrinsic gas too low: have ${d.gasLimit}, want ${intrinsic}`, 'intrinsicGasTooLow')
  const floor = BigInt(floorGas)
  if (d.gasLimit < floor)
    throw new TxRejectedError(`insufficient gas for floor data gas cost: have ${d.gasLimit}, want ${floor}`, 'intrinsicGasTooLow')
  return { tx, sender, senderKey, decoded: d, evm }
}

/**
 * geth's count of a blob transaction's blobs (txpool validateBlobTx), at least one and at most a block's worth (from
 * Osaka, EIP-7594's six a transaction): what EthereumJS's constructor held the pool's transactions to before.
 */
function checkBlobCount(blobs: number, common: Common): void {
  if (blobs === 0) throw new TxRejectedError('blobless blob transaction', 'invalidTransaction')
  const perBlock = Number(common.param('maxBlobGasPerBlock') / common.param('blobGasPerBlob'))
  const permitted = common.isActivatedEIP(7594) ? Math.min(perBlock, Number(common.param('maxBlobsPerTx'))) : perBlock
  if (blobs > permitted) throw new TxRejectedError(`too many blobs in transaction: have ${blobs}, permitted ${permitted}`, 'invalidTransaction')
}

/** geth's checks of a sidecar before its proofs (validateBlobSidecar, ValidateBlobCommitmentHashes), its messages. */
function checkSidecarShape(s: SidecarProofs, hashes: readonly Uint8Array[]): void {
  const refuse = (message: string) => new TxRejectedError(message, 'invalidTransaction')
  if (s.blobs.length !== hashes.length) throw refuse(`invalid number of ${s.blobs.length} blobs compared to ${hashes.length} blob hashes`)
  if (s.commitments.length !== hashes.length)
    throw refuse(`invalid number of ${s.commitments.length} blob commitments compared to ${hashes.length} blob hashes`)
  const proofs = s.version === 0 ? hashes.length : hashes.length * CELLS_PER_BLOB
  if (s.proofs.length !== proofs) throw refuse(`Wrong sidecar format: invalid number of ${s.proofs.length} blob proofs expected ${proofs}`)
  for (let i = 0; i < hashes.length; i++) {
    // EIP-4844's kzg_to_versioned_hash: the commitment's sha-256, its first byte the version, 1.
    const hex = `0x01${bytesToHex(sha256(s.commitments[i]!)).slice(4)}`
    const given = bytesToHex(hashes[i]!)
    if (hex !== given) throw refuse(`blob ${i}: computed hash ${hex} mismatches transaction one ${given}`)
  }
}
