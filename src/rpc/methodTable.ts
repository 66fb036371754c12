import type { IValidation } from 'typia'
import type { RpcResults } from '../wire/results.js'
import type { NodeContext } from './context.js'
import type { Reply, Result } from './reply.js'

export type Namespace = 'eth' | 'net' | 'web3' | 'debug' | 'txpool' | 'evm' | 'engine' | 'testing'

/**
 * Where a method's work runs: on the serving thread (store lookups), or in the endpoint's worker pool lane; or on the
 * serving thread as the requesting client's (it holds something per client: ctx.client is set for it); or first on
 * the serving thread and in the lane when it leaves the work to it (eth_call: calls/threadCalls.ts), admitted to
 * the lane then, through its context's lane, with the body's pool methods.
 */
export type RunsIn = 'thread' | 'pool' | 'threadAsClient' | 'threadFirst'

/** A method as the envelope calls it: the types erased, checked when the entry was made (`entry`). */
export interface MethodDef {
  namespace: Namespace
  runsIn: RunsIn
  validate(input: unknown): IValidation<unknown>
  handle(params: never, ctx: NodeContext): Reply | Promise<Reply>
  /**
   * An answer kept from an earlier call with exactly these parameters (compared as sent), asked before they are
   * validated, else undefined: what is kept was answered to valid parameters, so a hit needs no check. For the
   * reads whose check costs as much as the lookup (a hash's 64 digits against a pattern), and only where the kept
   * answer is the one `handle` would give now. Undefined for most methods.
   */
  kept: Kept | undefined
}

/** See MethodDef.kept. */
export type Kept = (params: readonly unknown[], ctx: NodeContext) => Reply | undefined

/**
 * A handler of method `M` whose parameters the validator gives as `P`: it may take any part of the context (a Pick
 * of NodeContext), and must answer `M`'s declared result (wire/results.ts), as a value or pre-encoded.
 */
export type Handler<M extends keyof RpcResults, P> = (params: P, ctx: NodeContext) => Result<RpcResults[M]>

/**
 * One row of the method table, type-checked: the name must be one of RpcResults', the handler must take what the
 * validator gives and answer the method's declared result. Nothing is wrapped: the row holds the handler itself.
 */
export function entry<M extends keyof RpcResults, P>(
  name: M,
  namespace: Namespace,
  validate: (input: unknown) => IValidation<P>,
  handle: Handler<M, P>,
  runsIn: RunsIn = 'thread',
  kept?: Kept,
): readonly [M, MethodDef] {
  return [name, method(namespace, validate, handle, runsIn, kept)]
}

/** Pairs a validator with the handler of the same parameter type (its result unchecked: tests' ad-hoc methods). */
export function method<P>(
  namespace: Namespace,
  validate: (input: unknown) => IValidation<P>,
  handle: (params: P, ctx: NodeContext) => Reply | Promise<Reply>,
  runsIn: RunsIn = 'thread',
  kept?: Kept,
): MethodDef {
  return { namespace, runsIn, validate, handle: handle as MethodDef['handle'], kept }
}

/** The names of RpcResults that `rows` leave out: `never` when the table is complete. */
export type Missing<Rows extends readonly (readonly [keyof RpcResults, MethodDef])[]> = Exclude<keyof RpcResults, Rows[number][0]>

export type MethodTable = ReadonlyMap<string, MethodDef>

/**
 * The method table from its rows: a compile error unless the rows name every method of RpcResults (the error names
 * the missing ones). The map is what the envelope reads.
 */
export function tableOf<const Rows extends readonly (readonly [keyof RpcResults, MethodDef])[]>(
  rows: Rows & ([Missing<Rows>] extends [never] ? unknown : { missingMethods: Missing<Rows> }),
): Map<string, MethodDef> {
  return new Map(rows)
}
