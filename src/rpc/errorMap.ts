import { AccessListUnsettledError, OverrideError, SimulationError, type SimulationKind, TraceTooLargeError } from '../calls/errors.js'
import { DevChainError } from '../dev/errors.js'
import { EngineError, type EngineErrorKind } from '../engine/errors.js'
import { TxRejectedError, UnknownParentError } from '../exec/errors.js'
import { BlockNotFoundError, StoreWriteError } from '../store/errors.js'
import { TxPoolRejectedError } from '../txpool/errors.js'
import { DomainError } from '../util/errors.js'
import { PoolBusyError, TaskTimeoutError } from '../workers/errors.js'
import {
  ErrorCode,
  InvalidForkchoiceStateError,
  InvalidParamsError,
  InvalidPayloadAttributesError,
  RpcError,
  TooLargeRequestError,
  UnknownPayloadError,
  UnsupportedForkError,
} from './errors.js'

// The one table from the domain's errors (util/errors.ts: a class, the family, and a kind within it) to JSON-RPC
// errors. Nothing below src/rpc knows a code; a code is chosen here by class and kind, never by message.

/** The Engine API's codes; the spec fixes some messages. */
const ENGINE: Record<EngineErrorKind, (message: string) => RpcError> = {
  invalidParams: (m) => new InvalidParamsError(m),
  unknownPayload: () => new UnknownPayloadError(),
  invalidForkchoiceState: (m) => new InvalidForkchoiceStateError(m),
  invalidPayloadAttributes: (m) => new InvalidPayloadAttributesError(m),
  unsupportedFork: () => new UnsupportedForkError(),
  tooLargeRequest: () => new TooLargeRequestError(),
}

/**
 * eth_simulateV1's codes (execution-apis, as geth's txValidationError gives them); a refusal the spec has no code
 * for is -32015, as a call's failure; block overrides no fork schedule allows are the client's params (-32602).
 */
const SIMULATION: Record<SimulationKind, ErrorCode> = {
  nonceTooLow: ErrorCode.nonceTooLow,
  nonceTooHigh: ErrorCode.nonceTooHigh,
  feeCapTooLow: ErrorCode.feeCapTooLow,
  // geth's txValidationError: fee fields the transaction contradicts itself with are the client's params.
  tipAboveFeeCap: ErrorCode.invalidParams,
  feeCapVeryHigh: ErrorCode.invalidParams,
  tipVeryHigh: ErrorCode.invalidParams,
  intrinsicGasTooLow: ErrorCode.intrinsicGasTooLow,
  insufficientFunds: ErrorCode.insufficientFunds,
  blockGasLimitReached: ErrorCode.blockGasLimitReached,
  exceedsBlockGasLimit: ErrorCode.blockGasLimitReached,
  blockNumberOrder: ErrorCode.blockNumberOrder,
  timestampOrder: ErrorCode.timestampOrder,
  movePrecompileTwice: ErrorCode.movePrecompileTwice,
  senderNotEoa: ErrorCode.senderNotEoa,
  maxInitCodeSizeExceeded: ErrorCode.maxInitCodeSizeExceeded,
  tooManyBlocks: ErrorCode.tooManyBlocks,
  notAPrecompile: ErrorCode.server,
  alreadyOverridden: ErrorCode.server,
  gasLimitTooHigh: ErrorCode.vmError,
  blobFeeCapTooLow: ErrorCode.vmError,
  txTypeNotSupported: ErrorCode.vmError,
  invalidTransaction: ErrorCode.vmError,
  invalidSender: ErrorCode.vmError,
  nonceMax: ErrorCode.vmError,
  rejected: ErrorCode.vmError,
}

/** The code of a domain error; undefined for the node's own failures (InvalidBlockError, StateUnavailableError). */
function codeOf(e: DomainError): ErrorCode | undefined {
  if (e instanceof SimulationError) return SIMULATION[e.kind]
  // geth answers every refused transaction or call -32000, whatever the reason, with its message.
  if (e instanceof TxRejectedError || e instanceof TxPoolRejectedError || e instanceof OverrideError || e instanceof AccessListUnsettledError)
    return ErrorCode.server
  // geth's "execution aborted (timeout = 5s)".
  if (e instanceof TaskTimeoutError) return ErrorCode.server
  // Limits of the node's the client ran into: a full lane (retry later), a trace too large to answer.
  if (e instanceof PoolBusyError || e instanceof TraceTooLargeError) return ErrorCode.limitExceeded
  if (e instanceof BlockNotFoundError) return e.kind === 'headerNotFound' ? ErrorCode.server : ErrorCode.unknownBlock
  // What the request asked to store could not be (geth has no code of its own for it: its writes crash the node).
  if (e instanceof StoreWriteError) return ErrorCode.server
  if (e instanceof UnknownParentError || e instanceof DevChainError) return ErrorCode.invalidParams
  return undefined
}

/**
 * The JSON-RPC error for what a handler threw: an RpcError as it is, a domain error by its class and kind.
 * Undefined means the error is not a known refusal: the envelope answers -32603 and logs it.
 */
export function toRpcError(e: unknown): RpcError | undefined {
  if (e instanceof RpcError) return e
  if (!(e instanceof DomainError)) return undefined
  if (e instanceof EngineError) return ENGINE[e.kind](e.message)
  const code = codeOf(e)
  return code === undefined ? undefined : new RpcError(code, e.message)
}
