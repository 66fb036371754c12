/**
 * Every JSON-RPC error code Sponge answers, by name: JSON-RPC 2.0's, EIP-1474's, execution-apis' (eth_simulateV1's
 * -380xx, 3 for a revert), the Engine API's (-3800x) and EIP-4444's. The numbers live here and nowhere else in src
 * (the tools that assert them aside); src/rpc/errorMap.ts gives each domain error kind one of them.
 */
export const ErrorCode = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  /** geth's code for a refused transaction or call, and for most other failures of a request. */
  server: -32000,
  /** EIP-1474: a request over a limit of the node's (a full lane, a log range, a trace's size). */
  limitExceeded: -32005,
  /** geth's: a reply, or a batch's reply, past its size limit. */
  responseTooLarge: -32003,
  /** geth's: a request that ran past its time (geth's HTTP timeouts). */
  timeout: -32002,
  /** eth_simulateV1: a call halted other than by REVERT, or its transaction refused for a reason of its own. */
  vmError: -32015,
  /** A call reverted (geth's: with the revert data). */
  executionReverted: 3,
  // eth_simulateV1 (execution-apis src/eth/execute.yaml).
  nonceTooLow: -38010,
  nonceTooHigh: -38011,
  feeCapTooLow: -38012,
  intrinsicGasTooLow: -38013,
  insufficientFunds: -38014,
  blockGasLimitReached: -38015,
  blockNumberOrder: -38020,
  timestampOrder: -38021,
  movePrecompileTwice: -38023,
  senderNotEoa: -38024,
  maxInitCodeSizeExceeded: -38025,
  tooManyBlocks: -38026,
  // The Engine API.
  unknownPayload: -38001,
  invalidForkchoiceState: -38002,
  invalidPayloadAttributes: -38003,
  tooLargeRequest: -38004,
  unsupportedFork: -38005,
  unknownBlock: -39001,
  /** EIP-4444. */
  prunedHistory: 4444,
} as const

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode]

/**
 * Every error a method can answer with, each class carrying its JSON-RPC code. rpc/envelope.ts is the one place
 * that turns them into error objects; anything else thrown by a handler becomes -32603 Internal error.
 */
export class RpcError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export class ParseError extends RpcError {
  constructor(message = 'Parse error') {
    super(ErrorCode.parseError, message)
  }
}

export class InvalidRequestError extends RpcError {
  constructor(message = 'Invalid request') {
    super(ErrorCode.invalidRequest, message)
  }
}

export class MethodNotFoundError extends RpcError {
  constructor(method: string) {
    super(ErrorCode.methodNotFound, `the method ${method} does not exist/is not available`)
  }
}

/** -32601 with geth's message: eth_subscribe over a transport without notifications (HTTP). */
export class NotificationsUnsupportedError extends RpcError {
  constructor() {
    super(ErrorCode.methodNotFound, 'notifications not supported')
  }
}

export class InvalidParamsError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.invalidParams, message)
  }
}

export class InternalError extends RpcError {
  constructor(message = 'Internal error') {
    super(ErrorCode.internal, message)
  }
}

/** -32000: the conventional code for a rejected transaction or call (geth's "nonce too low", …). */
export class ServerError extends RpcError {
  constructor(message: string) {
    super(ErrorCode.server, message)
  }
}

/** -32005: a limit of the node's: the lane is full (the client may retry later), a log query's range, a trace's size. */
export class LimitExceededError extends RpcError {
  constructor(message = 'request queue is full, try again later') {
    super(ErrorCode.limitExceeded, message)
  }
}

/** -32003 with geth's message: a call's reply past --rpc.max-response-size, or a batch's past its own bound. */
export class ResponseTooLargeError extends RpcError {
  constructor() {
    super(ErrorCode.responseTooLarge, 'response too large')
  }
}

/** -32002 'request timed out', geth's words, for a request that ran out of its time. */
export class RequestTimedOutError extends RpcError {
  constructor() {
    super(ErrorCode.timeout, 'request timed out')
  }
}

/** 3: a call reverted with data (geth's message carries the decoded reason; `data` the revert data). */
export class ExecutionRevertedError extends RpcError {
  constructor(message: string, data: string) {
    super(ErrorCode.executionReverted, message, data)
  }
}

export class UnknownPayloadError extends RpcError {
  constructor() {
    super(ErrorCode.unknownPayload, 'Unknown payload')
  }
}

export class InvalidForkchoiceStateError extends RpcError {
  constructor(message = 'Invalid forkchoice state') {
    super(ErrorCode.invalidForkchoiceState, message)
  }
}

export class InvalidPayloadAttributesError extends RpcError {
  constructor(message = 'Invalid payload attributes') {
    super(ErrorCode.invalidPayloadAttributes, message)
  }
}

export class TooLargeRequestError extends RpcError {
  constructor() {
    super(ErrorCode.tooLargeRequest, 'Too large request')
  }
}

export class UnsupportedForkError extends RpcError {
  constructor() {
    super(ErrorCode.unsupportedFork, 'Unsupported fork')
  }
}

export class UnknownBlockError extends RpcError {
  constructor(message = 'Unknown block') {
    super(ErrorCode.unknownBlock, message)
  }
}

export class PrunedHistoryError extends RpcError {
  constructor() {
    super(ErrorCode.prunedHistory, 'Pruned history unavailable')
  }
}

/**
 * The node's own error, as a reader forwards it (rpc/upstream.ts): its code, message and data unchanged. The code is
 * whatever the node answered (a Sponge node answers only codes of ErrorCode).
 */
export class ForwardedError extends RpcError {
  constructor(code: number, message: string, data?: unknown) {
    super(code as ErrorCode, message, data)
  }
}
