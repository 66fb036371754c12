import { DomainError } from '../util/errors.js'

// The execution layer's domain errors (util/errors.ts). Kept free of EthereumJS imports: the serving thread rebuilds
// them from a worker's outcome, and src/rpc/errorMap.ts gives their kinds JSON-RPC codes.

/** A block that breaks a consensus rule: remembered as invalid. */
export class InvalidBlockError extends DomainError<'invalidBlock', undefined> {
  override readonly name = 'InvalidBlockError'
  constructor(message: string) {
    super(message, 'invalidBlock', undefined)
  }
}

// A transaction's rejection is the EVM's (src/evm/errors.ts); re-exported here for the layers that know it as exec's.
export { TxRejectedError, type TxRejectionKind } from '../evm/errors.js'

/** A build was asked for on a parent the store does not have. */
export class UnknownParentError extends DomainError<'unknownParent', undefined> {
  override readonly name = 'UnknownParentError'
  constructor(message: string) {
    super(message, 'unknownParent', undefined)
  }
}

/**
 * The state a block runs on is not in the store (damaged, pruned, or a bug): retrying may succeed. Not the client's
 * doing: it crosses from a worker as an internal error (-32603, logged with its stack).
 */
export class StateUnavailableError extends DomainError<'stateUnavailable', undefined> {
  override readonly name = 'StateUnavailableError'
  constructor(message: string) {
    super(message, 'stateUnavailable', undefined)
  }
}
