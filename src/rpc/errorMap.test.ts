import { describe, expect, it } from 'vitest'
import { SimulationError, type SimulationKind, TraceTooLargeError } from '../calls/errors.js'
import { DevChainError } from '../dev/errors.js'
import { EngineError } from '../engine/errors.js'
import { InvalidBlockError, StateUnavailableError, TxRejectedError, UnknownParentError } from '../exec/errors.js'
import { BlockNotFoundError } from '../store/errors.js'
import { TxPoolRejectedError } from '../txpool/errors.js'
import { PoolBusyError, TaskTimeoutError, WorkerTaskError } from '../workers/errors.js'
import { toRpcError } from './errorMap.js'
import { ErrorCode, InvalidParamsError } from './errors.js'

// The one table: every family's code, the spec's codes for eth_simulateV1's kinds, limits never -32603, and the
// node's own failures left to the envelope (-32603, logged).

const code = (e: unknown) => toRpcError(e)?.code

describe('domain errors to JSON-RPC codes', () => {
  it("a refused transaction or call is -32000 whatever its kind, with the domain's message", () => {
    expect(toRpcError(new TxRejectedError('nonce too low: address 0x…, tx: 0 state: 1', 'nonceTooLow'))).toMatchObject({
      code: -32000,
      message: 'nonce too low: address 0x…, tx: 0 state: 1',
    })
    expect(code(new TxRejectedError('max initcode size exceeded: code size 49153 limit 49152', 'maxInitCodeSizeExceeded'))).toBe(-32000)
    expect(code(new TxPoolRejectedError('already known', 'alreadyKnown'))).toBe(-32000)
  })

  it("eth_simulateV1's kinds get the spec's codes", () => {
    const expected: [SimulationKind, number][] = [
      ['nonceTooLow', -38010],
      ['nonceTooHigh', -38011],
      ['feeCapTooLow', -38012],
      ['intrinsicGasTooLow', -38013],
      ['insufficientFunds', -38014],
      ['blockGasLimitReached', -38015],
      ['blockNumberOrder', -38020],
      ['timestampOrder', -38021],
      ['movePrecompileTwice', -38023],
      ['senderNotEoa', -38024],
      ['maxInitCodeSizeExceeded', -38025],
      ['tooManyBlocks', -38026],
      ['notAPrecompile', -32000],
      ['rejected', -32015],
      ['txTypeNotSupported', -32015],
    ]
    for (const [kind, c] of expected) expect([kind, code(new SimulationError('m', kind))]).toEqual([kind, c])
  })

  it('a limit the client ran into has its own code, never -32603', () => {
    expect(toRpcError(new TraceTooLargeError('trace exceeds 500000 steps'))).toMatchObject({ code: -32005, message: 'trace exceeds 500000 steps' })
    expect(toRpcError(new PoolBusyError('public'))).toMatchObject({ code: -32005, message: 'public request queue is full, try again later' })
    // geth's answer to a call past --rpc.evmtimeout.
    expect(toRpcError(new TaskTimeoutError(5000))).toMatchObject({ code: -32000, message: 'execution aborted (timeout = 5s)' })
  })

  it('blocks, parents, dev and engine refusals', () => {
    expect(code(new BlockNotFoundError('safe block not found'))).toBe(ErrorCode.unknownBlock)
    expect(code(new UnknownParentError('unknown parent'))).toBe(-32602)
    expect(code(new DevChainError("timestamp 1 is not after the head's 2"))).toBe(-32602)
    expect(toRpcError(new EngineError('unsupportedFork', 'Unsupported fork'))).toMatchObject({ code: -38005, message: 'Unsupported fork' })
    expect(toRpcError(new EngineError('tooLargeRequest', 'requested 2000 bodies, limit 1024'))).toMatchObject({
      code: -38004,
      message: 'Too large request',
    })
    expect(code(new EngineError('invalidForkchoiceState', 'safe block is not an ancestor'))).toBe(-38002)
  })

  it("RpcErrors pass as they are; the node's failures are not mapped (the envelope answers -32603 and logs them)", () => {
    const own = new InvalidParamsError('bad')
    expect(toRpcError(own)).toBe(own)
    expect(toRpcError(new StateUnavailableError('state unavailable'))).toBeUndefined()
    expect(toRpcError(new InvalidBlockError('invalid bloom'))).toBeUndefined()
    expect(toRpcError(new WorkerTaskError('TypeError: x is undefined'))).toBeUndefined()
    expect(toRpcError(new Error('boom'))).toBeUndefined()
  })
})
