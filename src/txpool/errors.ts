/** A transaction the pool refuses, with geth's message ("already known", "nonce too low: …", …). */
export class TxPoolRejectedError extends Error {
  override readonly name = 'TxPoolRejectedError'
}
