import { DomainError } from '../util/errors.js'

/** Why the pool refuses a transaction (geth's txpool errors, in the comments). */
export type TxPoolRejectionKind =
  /** ErrAlreadyKnown */
  | 'alreadyKnown'
  /** ErrNonceTooLow: below the sender's next nonce as the pool knows it */
  | 'nonceTooLow'
  /** ErrReplaceUnderpriced */
  | 'replacementUnderpriced'
  /** ErrTxPoolOverflow */
  | 'poolFull'
  /** ErrAccountLimitExceeded */
  | 'accountLimitExceeded'
  /** The blob pool's bound */
  | 'blobPoolFull'
  /** ErrOversizedData: larger than the pool takes (128 KiB, a blob transaction with its sidecar 1 MiB) */
  | 'oversizedData'
  /** Not replay-protected (pre-EIP-155) and sent over RPC without --rpc.allow-unprotected-txs (geth's SubmitTransaction) */
  | 'unprotected'

/** A transaction the pool refuses, with geth's message ("already known", "nonce too low: …", …). */
export class TxPoolRejectedError extends DomainError<TxPoolRejectionKind, undefined> {
  override readonly name = 'TxPoolRejectedError'
  constructor(message: string, kind: TxPoolRejectionKind) {
    super(message, kind, undefined)
  }
}
