import type { TraceOptions } from '../../calls/traceOptions.js'
import type { NodeContext } from '../context.js'
import { parseGoDuration } from '../../util/goDuration.js'
import { hexToBytes } from '../../util/hex.js'
import { LimitExceededError, ServerError } from '../errors.js'
import type { TraceBlockParams, TraceCallParams, TraceConfig, TraceTxParams } from '../../wire/ethParams.js'
import { callInput } from './call.js'
import { blockIdOf } from '../blockId.js'
import type { BlockTraceResult, TraceResult } from '../../wire/results.js'
import type { BlockTraces, TraceAnswer } from '../../calls/traceRunner.js'
import { headerNotFound } from '../../store/errors.js'
import { RawJson } from '../reply.js'

// debug_traceTransaction, debug_traceBlockByNumber/ByHash, debug_traceCall: the block (or call) re-executed in the
// endpoint's worker lane with geth's struct logger or callTracer; bounded by the config's `timeout` (timeLimitOf). The
// lane answers each tracer's JSON untyped (tasks.ts): it is asserted as TraceResult here.

type Ctx = Pick<NodeContext, 'chain' | 'limits' | 'pool' | 'calls'>

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

/**
 * A block's traces: on the serving thread when they are cheap (calls/threadCalls.ts), else in the lane, admitted as
 * eth_call is (these methods are not admitted by the envelope).
 */
function traceBlockAt(
  ctx: Pick<NodeContext, 'limits' | 'pool' | 'calls'>,
  blockHash: Uint8Array,
  c: TraceConfig | null | undefined,
  only?: number,
): BlockTraces | Promise<BlockTraces> {
  const opts = optionsOf(c)
  // Checked before anything runs, wherever it runs: a timeout that is no Go duration is refused.
  const timeoutMs = timeLimitOf(c, ctx)
  const here = ctx.calls.traceBlock(blockHash, opts, only)
  if (here !== undefined) return found(here)
  if (ctx.pool.admits(1) === 0) throw new LimitExceededError()
  return ctx.pool.run({ op: 'trace', blockHash, opts, ...(only === undefined ? {} : { only }) }, { timeoutMs }).then(found)
}

function found(traces: BlockTraces | null): BlockTraces {
  if (traces === null) throw new ServerError('block not found')
  return traces
}

export function traceTransaction(
  [hash, c]: TraceTxParams,
  ctx: Pick<NodeContext, 'store' | 'limits' | 'pool' | 'calls'>,
): RawJson<TraceResult> | Promise<RawJson<TraceResult>> {
  const loc = ctx.store.getTxLocation(hexToBytes(hash))
  if (loc === undefined) throw new ServerError(`transaction ${hash} not found`)
  const one = (traces: BlockTraces) => {
    const [trace] = traces
    if (trace === undefined) throw new ServerError(`transaction ${hash} not found`)
    return RawJson.of<TraceResult>(...traceJson(trace.trace))
  }
  const traces = traceBlockAt(ctx, loc.blockHash, c, loc.index)
  return traces instanceof Promise ? traces.then(one) : one(traces)
}

export function traceBlock([block, c]: TraceBlockParams, ctx: Ctx): RawJson<BlockTraceResult[]> | Promise<RawJson<BlockTraceResult[]>> {
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) throw new ServerError('block not found')
  const all = (traces: BlockTraces) => {
    const chunks: (string | Uint8Array)[] = ['[']
    for (const [i, t] of traces.entries()) chunks.push(`${i === 0 ? '' : ','}{"txHash":"${t.txHash}","result":`, ...traceJson(t.trace), '}')
    chunks.push(']')
    return RawJson.of<BlockTraceResult[]>(...chunks)
  }
  const traces = traceBlockAt(ctx, ref.hash, c)
  return traces instanceof Promise ? traces.then(all) : all(traces)
}

export function traceCall([call, block, c]: TraceCallParams, ctx: Ctx): RawJson<TraceResult> | Promise<RawJson<TraceResult>> {
  const input = callInput(ctx, call, block)
  const opts = optionsOf(c)
  const timeoutMs = timeLimitOf(c, ctx)
  const answer = (result: TraceAnswer | null) => {
    if (result === null) throw headerNotFound()
    return RawJson.of<TraceResult>(...traceJson(result))
  }
  const here = ctx.calls.traceCall(input, opts)
  if (here !== undefined) return answer(here)
  if (ctx.pool.admits(1) === 0) throw new LimitExceededError()
  return ctx.pool.run({ op: 'traceCall', input, opts }, { timeoutMs }).then(answer)
}
