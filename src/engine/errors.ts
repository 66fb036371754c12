/** Why an Engine API call (or testing_buildBlockV1) is refused; src/rpc/errorMap.ts gives each its spec code. */
export type EngineErrorKind =
  | 'invalidParams'
  | 'unknownPayload'
  | 'invalidForkchoiceState'
  | 'invalidPayloadAttributes'
  | 'unsupportedFork'
  | 'tooLargeRequest'

export class EngineError extends Error {
  override readonly name = 'EngineError'
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
  ) {
    super(message)
  }
}
