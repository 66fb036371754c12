import { describe, expect, it } from 'vitest'
import { SimulationError, TraceTooLargeError } from '../calls/errors.js'
import { InvalidBlockError, StateUnavailableError, TxRejectedError, UnknownParentError } from '../exec/errors.js'
import { BlockNotFoundError } from '../store/errors.js'
import type { DomainError } from '../util/errors.js'
import { PoolBusyError, TaskTimeoutError, crossingError, rebuiltError } from './errors.js'

// The worker hop: a domain error a task throws reaches the serving thread as the same class, kind, message and data,
// through structured clone as postMessage does it; the node's own failures do not pass as domain errors.

function acrossTheHop(e: unknown): DomainError | undefined {
  const wire = crossingError(e)
  return wire === undefined ? undefined : rebuiltError(structuredClone(wire))
}

describe('domain errors across the worker hop', () => {
  const crossing: DomainError[] = [
    new TxRejectedError('nonce too low: address 0x…, tx: 0 state: 1', 'nonceTooLow'),
    new TxRejectedError('something EthereumJS said'),
    new UnknownParentError('unknown parent 0x…'),
    new BlockNotFoundError('safe block not found'),
    new SimulationError('too many blocks', 'tooManyBlocks'),
    new TraceTooLargeError('trace exceeds 500000 steps'),
  ]

  it.each(crossing.map((e) => [e.name, e.kind, e] as const))('%s (%s) is rebuilt whole', (_name, _kind, e) => {
    const back = acrossTheHop(e)
    expect(back).toBeInstanceOf(e.constructor)
    expect(back).toMatchObject({ name: e.name, kind: e.kind, message: e.message, data: e.data })
  })

  it("the lane's own errors carry their data (they are made on the serving thread and never cross)", () => {
    expect(new PoolBusyError('public')).toMatchObject({
      kind: 'laneFull',
      data: { lane: 'public' },
      message: 'public request queue is full, try again later',
    })
    expect(new TaskTimeoutError(5000)).toMatchObject({ kind: 'timeout', data: { timeoutMs: 5000 }, message: 'execution aborted (timeout = 5s)' })
    expect(crossingError(new TaskTimeoutError(5000))).toBeUndefined()
  })

  it("the node's failures do not cross as domain errors", () => {
    expect(crossingError(new StateUnavailableError('state unavailable: missing node'))).toBeUndefined()
    expect(crossingError(new InvalidBlockError('invalid gasUsed'))).toBeUndefined()
    expect(crossingError(new TypeError('x is undefined'))).toBeUndefined()
    expect(crossingError('thrown string')).toBeUndefined()
    expect(rebuiltError({ name: 'NoSuchError', kind: 'x', message: 'm' })).toBeUndefined()
    expect(rebuiltError({ name: 'toString', kind: 'x', message: 'm' })).toBeUndefined()
  })
})
