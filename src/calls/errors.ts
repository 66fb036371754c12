import { DomainError } from '../util/errors.js'
import type { TxRejectedError, TxRejectionKind } from '../exec/errors.js'

// The EVM-backed reads' domain errors (util/errors.ts); src/rpc/errorMap.ts gives their kinds JSON-RPC codes.

/** Why a call's state overrides cannot be applied (geth's StateOverride.Apply). */
export type OverrideKind =
  /** movePrecompileToAddress of an account that is not a precompile */
  | 'notAPrecompile'
  /** two precompiles moved to one address, or a precompile moved onto an account it then overrides */
  | 'movePrecompileTwice'
  /** a precompile moved to an address another override names */
  | 'alreadyOverridden'

export class OverrideError extends DomainError<OverrideKind, undefined> {
  override readonly name = 'OverrideError'
  constructor(message: string, kind: OverrideKind) {
    super(message, kind, undefined)
  }
}

/**
 * Why eth_simulateV1 stops: a call's transaction refused (the rejection's kind, which the spec gives its own codes),
 * or blocks the request orders wrongly or asks too many of.
 */
export type SimulationKind = TxRejectionKind | OverrideKind | 'blockNumberOrder' | 'timestampOrder' | 'tooManyBlocks'

export class SimulationError extends DomainError<SimulationKind, undefined> {
  override readonly name = 'SimulationError'
  constructor(message: string, kind: SimulationKind) {
    super(message, kind, undefined)
  }

  /** A call's rejection, as the simulation's error. */
  static of(rejection: TxRejectedError | OverrideError): SimulationError {
    return new SimulationError(rejection.message, rejection.kind)
  }
}

/** eth_createAccessList's list kept changing from run to run (geth's loop has no bound; Sponge's stops). */
export class AccessListUnsettledError extends DomainError<'accessListUnsettled', undefined> {
  override readonly name = 'AccessListUnsettledError'
  constructor(message = 'access list did not settle') {
    super(message, 'accessListUnsettled', undefined)
  }
}

/** The tracers' own (src/tracers/errors.ts): one class, whichever tracer throws it. */
export { TraceTooLargeError } from '../tracers/errors.js'
