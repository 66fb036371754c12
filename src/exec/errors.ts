// The execution layer's domain errors. Kept free of EthereumJS imports: the serving thread rebuilds them from a
// worker's outcome, and src/rpc maps them to JSON-RPC codes.

/** A block that breaks a consensus rule: remembered as invalid. */
export class InvalidBlockError extends Error {
  override readonly name = 'InvalidBlockError'
}

/** A transaction that cannot be applied on some state, with geth's conventional message. */
export class TxRejectedError extends Error {
  override readonly name = 'TxRejectedError'
}

/** A build was asked for on a parent the store does not have. */
export class UnknownParentError extends Error {
  override readonly name = 'UnknownParentError'
}

/** The state a block runs on is not in the store (damaged, pruned, or a bug): retrying may succeed. */
export class StateUnavailableError extends Error {
  override readonly name = 'StateUnavailableError'
}
