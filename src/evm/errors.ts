import { DomainError } from '../util/errors.js'

// Why a transaction cannot be applied: the EVM's transaction processing refuses with these kinds, and the layers above
// (the pool, the builder, eth_call) with the same. src/rpc/errorMap.ts gives them JSON-RPC codes.

/** Why a transaction cannot be applied (geth's error for each, core/error.go, in the comments). */
export type TxRejectionKind =
  /** ErrNonceTooLow */
  | 'nonceTooLow'
  /** ErrNonceTooHigh */
  | 'nonceTooHigh'
  /** ErrNonceMax: a nonce of 2^64-1 (EIP-2681) */
  | 'nonceMax'
  /** ErrIntrinsicGas (or EIP-7623's floor, ErrFloorDataGas) */
  | 'intrinsicGasTooLow'
  /** ErrGasLimitTooHigh: over EIP-7825's per-transaction cap */
  | 'gasLimitTooHigh'
  /** ErrGasLimit: more gas than the block's limit */
  | 'exceedsBlockGasLimit'
  /** ErrGasLimitReached: more gas than is left in the block */
  | 'blockGasLimitReached'
  /** ErrFeeCapTooLow: the fee cap is below the block's base fee */
  | 'feeCapTooLow'
  /** ErrTipAboveFeeCap: the max priority fee is above the max fee */
  | 'tipAboveFeeCap'
  /** ErrFeeCapVeryHigh: a fee cap of more than 256 bits */
  | 'feeCapVeryHigh'
  /** ErrTipVeryHigh: a max priority fee of more than 256 bits */
  | 'tipVeryHigh'
  /** ErrBlobFeeCapTooLow */
  | 'blobFeeCapTooLow'
  /** ErrInsufficientFunds */
  | 'insufficientFunds'
  /** ErrSenderNoEOA (EIP-3607) */
  | 'senderNotEoa'
  /** ErrMaxInitCodeSizeExceeded (EIP-3860) */
  | 'maxInitCodeSizeExceeded'
  /** ErrTxTypeNotSupported: a field or type the block's fork does not have */
  | 'txTypeNotSupported'
  /** txpool's ErrInvalidSender: signed for another chain, or signature values no sender can be recovered from */
  | 'invalidSender'
  /** Does not decode (geth's "rlp: …"), or its sidecar or authorization list is missing or wrong */
  | 'invalidTransaction'
  /** Refused for another reason (EthereumJS's block processing: its message, without its debug suffix) */
  | 'rejected'

/** A transaction (or call) that cannot be applied on some state, with geth's conventional message. */
export class TxRejectedError extends DomainError<TxRejectionKind, undefined> {
  override readonly name = 'TxRejectedError'
  constructor(message: string, kind: TxRejectionKind = 'rejected') {
    super(message, kind, undefined)
  }
}
