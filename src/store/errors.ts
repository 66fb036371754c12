import { DomainError } from '../util/errors.js'

/** A block named by hash or label that the store does not have (or not on the canonical chain when that was asked). */
export class BlockNotFoundError extends DomainError<'blockNotFound', undefined> {
  override readonly name = 'BlockNotFoundError'
  constructor(message: string) {
    super(message, 'blockNotFound', undefined)
  }
}
