import { DomainError } from '../util/errors.js'

// The tracers' domain errors (util/errors.ts); src/rpc/errorMap.ts gives their kinds JSON-RPC codes.

/**
 * A trace that would pass the struct logger's bounds (steps, captured memory): a limit the client ran into, which
 * it can stay under by tracing less (disableStack, no enableMemory) or a smaller transaction.
 */
export class TraceTooLargeError extends DomainError<'traceTooLarge', undefined> {
  override readonly name = 'TraceTooLargeError'
  constructor(message: string) {
    super(message, 'traceTooLarge', undefined)
  }
}
