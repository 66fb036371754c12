import { DomainError } from '../util/errors.js'

/** A dev method asked for something the chain cannot do: a timestamp not after the head's. */
export class DevChainError extends DomainError<'timestampNotAfterHead', undefined> {
  override readonly name = 'DevChainError'
  constructor(message: string) {
    super(message, 'timestampNotAfterHead', undefined)
  }
}
