/** A block named by hash or label that the store does not have (or not on the canonical chain when that was asked). */
export class BlockNotFoundError extends Error {
  override readonly name = 'BlockNotFoundError'
}
