import { EngineError, type EngineErrorKind } from '../engine/errors.js'
import { TxRejectedError, UnknownParentError } from '../exec/errors.js'
import { BlockNotFoundError } from '../store/errors.js'
import { TxPoolRejectedError } from '../txpool/errors.js'
import { DevChainError } from '../dev/errors.js'
import { PoolBusyError, TaskTimeoutError } from '../workers/pool.js'
import {
  InvalidForkchoiceStateError,
  InvalidParamsError,
  InvalidPayloadAttributesError,
  LimitExceededError,
  RpcError,
  ServerError,
  TooLargeRequestError,
  UnknownBlockError,
  UnknownPayloadError,
  UnsupportedForkError,
} from './errors.js'

const ENGINE: Record<EngineErrorKind, (message: string) => RpcError> = {
  invalidParams: (m) => new InvalidParamsError(m),
  unknownPayload: () => new UnknownPayloadError(),
  invalidForkchoiceState: (m) => new InvalidForkchoiceStateError(m),
  invalidPayloadAttributes: (m) => new InvalidPayloadAttributesError(m),
  unsupportedFork: () => new UnsupportedForkError(),
  tooLargeRequest: () => new TooLargeRequestError(),
}

/**
 * The one table from the domain's errors to JSON-RPC errors (by class, never by message). Undefined means the error
 * is not a known refusal: the envelope answers -32603 and logs it.
 */
export function toRpcError(e: unknown): RpcError | undefined {
  if (e instanceof RpcError) return e
  if (e instanceof EngineError) return ENGINE[e.kind](e.message)
  if (e instanceof TxRejectedError || e instanceof TxPoolRejectedError) return new ServerError(e.message)
  if (e instanceof PoolBusyError) return new LimitExceededError(e.message)
  if (e instanceof TaskTimeoutError) return new ServerError(e.message)
  if (e instanceof BlockNotFoundError) return new UnknownBlockError(e.message)
  if (e instanceof UnknownParentError) return new InvalidParamsError(e.message)
  if (e instanceof DevChainError) return new InvalidParamsError(e.message)
  return undefined
}
