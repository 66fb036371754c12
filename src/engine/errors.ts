import { DomainError } from '../util/errors.js'

/** Why an Engine API call (or testing_buildBlockV1) is refused; src/rpc/errorMap.ts gives each its spec code. */
export type EngineErrorKind =
  | 'invalidParams'
  | 'unknownPayload'
  | 'invalidForkchoiceState'
  | 'invalidPayloadAttributes'
  | 'unsupportedFork'
  | 'tooLargeRequest'

/** Thrown on the serving thread only: it never crosses from a worker. */
export class EngineError extends DomainError<EngineErrorKind, undefined> {
  override readonly name = 'EngineError'
  constructor(kind: EngineErrorKind, message: string) {
    super(message, kind, undefined)
  }
}
