import type { IValidation } from 'typia'
import type { NodeContext } from './context.js'
import type { Reply } from './reply.js'

export type Namespace = 'eth' | 'net' | 'web3' | 'debug' | 'txpool' | 'evm' | 'engine' | 'testing'

/** Where a method's work runs: on the serving thread (store lookups), or in the endpoint's worker pool lane. */
export type RunsIn = 'thread' | 'pool'

export interface MethodDef {
  namespace: Namespace
  runsIn: RunsIn
  validate(input: unknown): IValidation<unknown>
  handle(params: never, ctx: NodeContext): Reply | Promise<Reply>
}

/** Pairs a validator with the handler of the same parameter type, so the table stays type-checked per method. */
export function method<P>(
  namespace: Namespace,
  validate: (input: unknown) => IValidation<P>,
  handle: (params: P, ctx: NodeContext) => Reply | Promise<Reply>,
  runsIn: RunsIn = 'thread',
): MethodDef {
  return { namespace, runsIn, validate, handle: handle as MethodDef['handle'] }
}

export type MethodTable = ReadonlyMap<string, MethodDef>
