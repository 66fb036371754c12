import type { TraceOptions } from '../../calls/traceOptions.js'
import type { NodeContext } from '../context.js'
import { parseGoDuration } from '../../util/goDuration.js'
import { hexToBytes } from '../../util/hex.js'
import { ServerError } from '../errors.js'
import type { TraceBlockParams, TraceCallParams, TraceConfig, TraceTxParams } from '../../wire/ethParams.js'
import { callInput } from './call.js'
import { blockIdOf } from '../blockId.js'
import type { BlockTraceResult, TraceResult } from '../../wire/results.js'
import type { TraceAnswer } from '../../calls/traceRunner.js'
import { headerNotFound } from '../../store/errors.js'
import { RawJson } from '../reply.js'

// debug_traceTransaction, debug_traceBlockByNumber/ByHash, debug_traceCall: the block (or call) re-executed in the
// endpoint's worker lane with geth's struct logger or callTracer; bounded by the config's `timeout` (timeLimitOf). The
// lane answers each tracer's JSON untyped (tasks.ts): it is asserted as TraceResult here.

type Ctx = Pick<NodeContext, 'chain' | 'limits' | 'pool'>

function optionsOf(c: TraceConfig | null | undefined): TraceOptions {
  const o: TraceOptions = {}
  if (c === undefined || c === null) return o
  if (c.tracer !== undefined) o.tracer = c.tracer
  if (c.disableStack !== undefined) o.disableStack = c.disableStack
  if (c.disableStorage !== undefined) o.disableStorage = c.disableStorage
  if (c.enableMemory !== undefined) o.enableMemory = c.enableMemory
  if (c.enableReturnData !== undefined) o.enableReturnData = c.enableReturnData
  if (c.tracerConfig?.onlyTopCall !== undefined) o.onlyTopCall = c.tracerConfig.onlyTopCall
  if (c.tracerConfig?.withLog !== undefined) o.withLog = c.tracerConfig.withLog
  if (c.tracerConfig?.diffMode !== undefined) o.diffMode = c.tracerConfig.diffMode
  return o
}

/**
 * The longest a client's `timeout` may run a trace, unless --rpc.evmtimeout is longer: geth takes any duration, but
 * its HTTP endpoint answers "request timed out" after its 30 s write timeout anyway, and a worker held longer is a
 * worker other clients wait for.
 */
export const TRACE_TIMEOUT_MAX_MS = 30_000

/**
 * A trace's time limit: the config's `timeout` (a Go duration, as geth reads it), else --rpc.evmtimeout (5 s by
 * default, geth's defaultTraceTimeout). geth limits each transaction of a block trace; here the limit is the whole
 * task's. A zero or negative duration, which stops geth's tracer at once, is the shortest limit the lane keeps.
 */
export function timeLimitOf(c: TraceConfig | null | undefined, ctx: Pick<NodeContext, 'limits'>): number {
  if (c?.timeout === undefined) return ctx.limits.evmTimeoutMs
  const d = parseGoDuration(c.timeout)
  if ('error' in d) throw new ServerError(d.error)
  return Math.min(Math.max(d.ms, 1), Math.max(TRACE_TIMEOUT_MAX_MS, ctx.limits.evmTimeoutMs))
}

/** A trace as reply text: the struct logger's chunks as they are, another tracer's object as JSON. */
function traceJson(t: TraceAnswer): (string | Uint8Array)[] {
  return 'json' in t ? t.json : [JSON.stringify(t.value)]
}

async function traceBlockAt(
  ctx: Pick<NodeContext, 'limits' | 'pool'>,
  blockHash: Uint8Array,
  c: TraceConfig | null | undefined,
  only?: number,
): Promise<{ txHash: string; trace: TraceAnswer }[]> {
  const traces = await ctx.pool.run(
    { op: 'trace', blockHash, opts: optionsOf(c), ...(only === undefined ? {} : { only }) },
    { timeoutMs: timeLimitOf(c, ctx) },
  )
  if (traces === null) throw new ServerError('block not found')
  return traces
}

export async function traceTransaction([hash, c]: TraceTxParams, ctx: Pick<NodeContext, 'store' | 'limits' | 'pool'>): Promise<RawJson<TraceResult>> {
  const loc = ctx.store.getTxLocation(hexToBytes(hash))
  if (loc === undefined) throw new ServerError(`transaction ${hash} not found`)
  const [trace] = await traceBlockAt(ctx, loc.blockHash, c, loc.index)
  if (trace === undefined) throw new ServerError(`transaction ${hash} not found`)
  return RawJson.of<TraceResult>(...traceJson(trace.trace))
}

export async function traceBlock([block, c]: TraceBlockParams, ctx: Ctx): Promise<RawJson<BlockTraceResult[]>> {
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) throw new ServerError('block not found')
  const traces = await traceBlockAt(ctx, ref.hash, c)
  const chunks: (string | Uint8Array)[] = ['[']
  for (const [i, t] of traces.entries()) chunks.push(`${i === 0 ? '' : ','}{"txHash":"${t.txHash}","result":`, ...traceJson(t.trace), '}')
  chunks.push(']')
  return RawJson.of<BlockTraceResult[]>(...chunks)
}

export async function traceCall([call, block, c]: TraceCallParams, ctx: Ctx): Promise<RawJson<TraceResult>> {
  const result = await ctx.pool.run({ op: 'traceCall', input: callInput(ctx, call, block), opts: optionsOf(c) }, { timeoutMs: timeLimitOf(c, ctx) })
  if (result === null) throw headerNotFound()
  return RawJson.of<TraceResult>(...traceJson(result))
}
