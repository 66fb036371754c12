import type { IValidation } from 'typia'
import type { NodeContext } from '../node/context.js'
import type { Reply } from './reply.js'

export type Namespace = 'eth' | 'net' | 'web3' | 'engine' | 'testing'

export interface MethodDef {
  namespace: Namespace
  validate(input: unknown): IValidation<unknown>
  handle(params: never, ctx: NodeContext): Reply | Promise<Reply>
}

/** Pairs a validator with the handler of the same parameter type, so the table stays type-checked per method. */
export function method<P>(
  namespace: Namespace,
  validate: (input: unknown) => IValidation<P>,
  handle: (params: P, ctx: NodeContext) => Reply | Promise<Reply>,
): MethodDef {
  return { namespace, validate, handle: handle as MethodDef['handle'] }
}

export type MethodTable = ReadonlyMap<string, MethodDef>
