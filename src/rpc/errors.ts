/**
 * Every error a method can answer with, each class carrying its JSON-RPC code. rpc/envelope.ts is the one place
 * that turns them into error objects; anything else thrown by a handler becomes -32603 Internal error.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export class ParseError extends RpcError {
  constructor(message = 'Parse error') {
    super(-32700, message)
  }
}

export class InvalidRequestError extends RpcError {
  constructor(message = 'Invalid request') {
    super(-32600, message)
  }
}

export class MethodNotFoundError extends RpcError {
  constructor(method: string) {
    super(-32601, `the method ${method} does not exist/is not available`)
  }
}

export class InvalidParamsError extends RpcError {
  constructor(message: string) {
    super(-32602, message)
  }
}

export class InternalError extends RpcError {
  constructor(message = 'Internal error') {
    super(-32603, message)
  }
}

/** -32000: the conventional code for a rejected transaction or call (geth's "nonce too low", …). */
export class ServerError extends RpcError {
  constructor(message: string) {
    super(-32000, message)
  }
}

/** -32005: the node is overloaded (worker queue full); the client may retry later. */
export class LimitExceededError extends RpcError {
  constructor(message = 'request queue is full, try again later') {
    super(-32005, message)
  }
}

/** 3: a call reverted with data (geth's message carries the decoded reason; `data` the revert data). */
export class ExecutionRevertedError extends RpcError {
  constructor(message: string, data: string) {
    super(3, message, data)
  }
}

export class UnknownPayloadError extends RpcError {
  constructor() {
    super(-38001, 'Unknown payload')
  }
}

export class InvalidForkchoiceStateError extends RpcError {
  constructor(message = 'Invalid forkchoice state') {
    super(-38002, message)
  }
}

export class InvalidPayloadAttributesError extends RpcError {
  constructor(message = 'Invalid payload attributes') {
    super(-38003, message)
  }
}

export class TooLargeRequestError extends RpcError {
  constructor() {
    super(-38004, 'Too large request')
  }
}

export class UnsupportedForkError extends RpcError {
  constructor() {
    super(-38005, 'Unsupported fork')
  }
}

export class UnknownBlockError extends RpcError {
  constructor(message = 'Unknown block') {
    super(-39001, message)
  }
}

export class PrunedHistoryError extends RpcError {
  constructor() {
    super(4444, 'Pruned history unavailable')
  }
}
