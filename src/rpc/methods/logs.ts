import type { FilterBound, InstalledFilter } from '../../logs/filters.js'
import { type LogBudget, type LogCriteria, type LogScope, type LogSliceResult, scanLogs } from '../../logs/logQuery.js'
import type { NodeContext } from '../context.js'
import type { BlockRef } from '../../store/chainReader.js'
import { HeaderView } from '../../store/headerView.js'
import { bytesToHex, equalBytes, hexToBytes } from '../../util/hex.js'
import { InvalidParamsError, LimitExceededError, RequestTimedOutError, ResponseTooLargeError, ServerError } from '../errors.js'
import { servingTurns as turns } from '../../util/turns.js'
import { RawJson } from '../reply.js'
import type { FilterIdParams, LogFilterWire, LogsParams, NoParams } from '../../wire/ethParams.js'
import type { Hash32, Quantity } from '../../wire/primitives.js'
import type { LogResult } from '../../wire/results.js'

// eth_getLogs and the polling filters. Ranges are resolved here; the logs are read from the log index written
// when each block was executed, a slice at a time: here while the query is small, then in the worker lane (see
// `query`).

/** geth's bounds on a filter's criteria. */
const MAX_TOPICS = 4
const MAX_VALUES_PER_POSITION = 1000

/** A query's needs: the range resolved against the chain, its bounds, the log index, the lane past IN_THREAD. */
type QueryCtx = Pick<NodeContext, 'chain' | 'store' | 'limits' | 'pool'>
type Ctx = QueryCtx & Pick<NodeContext, 'filters'>

export async function getLogs([f]: LogsParams, ctx: QueryCtx): Promise<RawJson<LogResult[]>> {
  const criteria = criteriaOf(f)
  return RawJson.of<LogResult[]>(...(await query(ctx, scopeOf(f, ctx), criteria)))
}

export function newFilter([f]: LogsParams, ctx: Pick<NodeContext, 'chain' | 'store' | 'limits' | 'filters' | 'client'>): Quantity {
  const criteria = criteriaOf(f)
  scopeOf(f, ctx) // refuses what eth_getLogs would refuse, now rather than at every poll
  return install(ctx, {
    kind: 'logs',
    criteria,
    from: boundOf(f.fromBlock),
    to: boundOf(f.toBlock),
    ...(f.blockHash === undefined ? {} : { blockHash: hexToBytes(f.blockHash) }),
    last: ctx.chain.head(),
  })
}

export const newBlockFilter = (_: NoParams, ctx: Pick<NodeContext, 'chain' | 'filters' | 'client'>): Quantity =>
  install(ctx, { kind: 'blocks', last: ctx.chain.head() })

export const newPendingTransactionFilter = (_: NoParams, ctx: Pick<NodeContext, 'filters' | 'client'>): Quantity =>
  install(ctx, { kind: 'pendingTxs', hashes: [] })

export const uninstallFilter = ([id]: FilterIdParams, ctx: Pick<NodeContext, 'filters'>): boolean => ctx.filters.uninstall(id)

/**
 * What happened since the last poll: new transaction hashes, new canonical block hashes, or logs — those of blocks
 * that left the canonical chain first (`removed: true`), then those of the blocks that joined it.
 */
export async function getFilterChanges([id]: FilterIdParams, ctx: Ctx): Promise<Hash32[] | RawJson<LogResult[]>> {
  const f = found(ctx, id)
  if (f.kind === 'pendingTxs') return f.hashes.splice(0)
  const step = advance(ctx, f.last)
  f.last = step.head
  const joined = { from: step.forkPoint + 1n, to: step.head.number }
  if (f.kind === 'blocks') {
    const out: string[] = []
    for (let n = joined.from; n <= joined.to; n++) {
      const h = ctx.store.getCanonicalHash(n)
      if (h !== undefined) out.push(bytesToHex(h))
    }
    return out
  }
  const gone = step.left.length === 0 ? undefined : await query(ctx, { blockHashes: step.left }, f.criteria, true)
  const added = joined.from > joined.to ? undefined : await query(ctx, joined, f.criteria)
  return new RawJson<LogResult[]>(concatArrays(gone, added))
}

/** All logs of a log filter's range (its tags resolved now), as eth_getLogs would answer them. */
export async function getFilterLogs([id]: FilterIdParams, ctx: Ctx): Promise<RawJson<LogResult[]>> {
  const f = found(ctx, id)
  if (f.kind !== 'logs') throw new ServerError('filter not found')
  const scope: LogScope =
    f.blockHash !== undefined ? { blockHashes: [f.blockHash] } : rangeOf(resolveBound(f.from, ctx), resolveBound(f.to, ctx), ctx)
  return RawJson.of<LogResult[]>(...(await query(ctx, scope, f.criteria)))
}

/** Installs `filter` in the client's share; a full share or a full registry is refused, in geth's "exceed max" words. */
function install(ctx: Pick<NodeContext, 'filters' | 'client' | 'filterHolder'>, filter: InstalledFilter): string {
  const id = ctx.filters.install(filter, ctx.client, ctx.filterHolder)
  if (typeof id === 'string') return id
  throw new LimitExceededError(id.refused === 'client' ? `exceed max filters per client (${id.limit})` : `exceed max filters (${id.limit})`)
}

function found(ctx: Pick<NodeContext, 'filters'>, id: string): InstalledFilter {
  const f = ctx.filters.touch(id)
  if (f === undefined) throw new ServerError('filter not found')
  return f
}

/**
 * A query runs a slice at a time (logQuery.ts: a bounded number of blocks and logs each), so that no query holds a
 * thread for long: the first few slices here on the serving thread, each in a turn of its own (`turns`: an Engine
 * API call, or another client's request, is answered between two slices, never after all of them), the rest in the
 * worker lane, each slice a task of its own that takes its turn among other clients' calls. A small query is done
 * in one turn here: measured (bench:load, 2,000 blocks, 190 logs a reply), 2,353 replies/s on the serving thread
 * against 1,111 through the lane — the lane's thread hop costs more than such a query. The reply's parts are kept as
 * the slices give them (no copy into one buffer); the whole query is bounded by --rpc.logs.maxresults, by the reply
 * bound and by LOG_QUERY_TIMEOUT_MS.
 */
async function query(
  ctx: Pick<NodeContext, 'store' | 'limits' | 'pool'>,
  scope: LogScope,
  criteria: LogCriteria,
  removed = false,
): Promise<(Uint8Array | string)[]> {
  const maxResults = ctx.limits.logsMaxResults
  // The brackets around the logs.
  const maxBytes = ctx.limits.maxReplyBytes - 2
  const parts: (Uint8Array | string)[] = ['[']
  let count = 0
  let bytes = 0
  let at = scope
  const until = Date.now() + LOG_QUERY_TIMEOUT_MS
  for (let slice = 0; ; slice++) {
    const comma = count > 0 ? 1 : 0
    const limits = { maxResults: maxResults - count, maxBytes: maxBytes - bytes - comma }
    let r: LogSliceResult
    if (slice < THREAD_SLICES) {
      await turns.next()
      r = scanLogs(ctx.store, at, criteria, limits, removed, THREAD_SLICE)
      logWork.threadSlices++
    } else {
      r = await ctx.pool.run({ op: 'logs', scope: at, criteria, ...limits, removed, budget: LANE_SLICE })
      logWork.laneSlices++
    }
    if ('overLimit' in r) throw new LimitExceededError(`query returned more than ${maxResults} results`)
    if ('tooLarge' in r) throw new ResponseTooLargeError()
    logWork.blocks += r.visited
    if (r.count > 0) {
      if (comma === 1) parts.push(',')
      parts.push(r.json)
      count += r.count
      bytes += comma + r.json.length
    }
    if (r.next === undefined || !('to' in at)) break
    if (Date.now() >= until) throw new RequestTimedOutError()
    at = { from: r.next, to: at.to }
  }
  parts.push(']')
  return parts
}

/** A slice's work on the serving thread: ~1 µs a block visited, ~0.1-2 µs a log (matched and copied or not). */
const THREAD_SLICE: LogBudget = { blocks: 1000, logs: 1000 }
/** Slices a query takes on the serving thread before the lane takes the rest. */
const THREAD_SLICES = 1
/** A slice in the lane: tens of milliseconds of a worker at most, then the task ends and others' calls get a turn. */
const LANE_SLICE: LogBudget = { blocks: 5000, logs: 5000 }
/** The longest a query may run, slices and their waits: geth answers a request past its HTTP timeout (30 s) so. */
const LOG_QUERY_TIMEOUT_MS = 30_000

/** The work log queries have done since start, for metrics: blocks visited, slices run here and in the lane. */
export const logWork = { blocks: 0, threadSlices: 0, laneSlices: 0 }

export function criteriaOf(f: LogFilterWire): LogCriteria {
  const addresses = f.address === undefined || f.address === null ? [] : Array.isArray(f.address) ? f.address : [f.address]
  if (addresses.length > MAX_VALUES_PER_POSITION) throw new InvalidParamsError('exceed max addresses')
  const topics = f.topics ?? []
  if (topics.length > MAX_TOPICS) throw new InvalidParamsError('exceed max topics')
  return {
    addresses: addresses.map(hexToBytes),
    topics: topics.map((t) => {
      if (t === null) return null
      const set = Array.isArray(t) ? t : [t]
      if (set.length > MAX_VALUES_PER_POSITION) throw new InvalidParamsError('exceed max topics')
      return set.length === 0 ? null : set.map(hexToBytes)
    }),
  }
}

function scopeOf(f: LogFilterWire, ctx: Pick<NodeContext, 'chain' | 'store' | 'limits'>): LogScope {
  if (f.blockHash === undefined) return rangeOf(resolveBound(boundOf(f.fromBlock), ctx), resolveBound(boundOf(f.toBlock), ctx), ctx)
  if (f.fromBlock !== undefined || f.toBlock !== undefined) {
    throw new InvalidParamsError('invalid argument 0: cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other')
  }
  const hash = hexToBytes(f.blockHash)
  if (!ctx.store.hasBlock(hash)) throw new ServerError('unknown block')
  return { blockHashes: [hash] }
}

/** geth's checks, in its order: a reversed range, then one reaching past the head; then our range bound. */
function rangeOf(from: bigint, to: bigint, ctx: Pick<NodeContext, 'chain' | 'limits'>): { from: bigint; to: bigint } {
  if (from > to) throw new InvalidParamsError('invalid block range params')
  if (to > ctx.chain.headNumber()) throw new InvalidParamsError('block range extends beyond current head block')
  const max = ctx.limits.logsMaxRange
  if (to - from + 1n > BigInt(max)) throw new LimitExceededError(`query exceeds max block range ${max}`)
  return { from, to }
}

/** An omitted bound is `latest`; `pending` reads as `latest` (there are no pending logs to serve). */
function boundOf(v: LogFilterWire['fromBlock']): FilterBound {
  switch (v) {
    case undefined:
    case 'latest':
    case 'pending':
      return 'latest'
    case 'earliest':
    case 'safe':
    case 'finalized':
      return v as 'earliest' | 'safe' | 'finalized'
    default:
      return BigInt(v)
  }
}

function resolveBound(b: FilterBound, ctx: Pick<NodeContext, 'chain'>): bigint {
  if (typeof b === 'bigint') return b
  if (b === 'latest') return ctx.chain.headNumber()
  if (b === 'earliest') return 0n
  return ctx.chain.resolve({ tag: b })!.number
}

/** From a block a filter last saw to the head: the blocks that left the canonical chain since, and the fork point. */
function advance(ctx: Pick<NodeContext, 'chain' | 'store'>, last: BlockRef): { head: BlockRef; left: Uint8Array[]; forkPoint: bigint } {
  const head = ctx.chain.head()
  const left: Uint8Array[] = []
  let n = last.number
  let h = last.hash
  while (n > 0n) {
    const c = ctx.store.getCanonicalHash(n)
    if (c !== undefined && equalBytes(c, h)) break
    left.push(h)
    h = HeaderView.read(ctx.store, h)!.parentHash
    n--
  }
  return { head, left: left.reverse(), forkPoint: n }
}

/** Two JSON arrays' elements as one array (each as `query` gives it: '[', parts, ']'), either possibly absent or empty. */
function concatArrays(a: (Uint8Array | string)[] | undefined, b: (Uint8Array | string)[] | undefined): (Uint8Array | string)[] {
  const items = [a, b].filter((x): x is (Uint8Array | string)[] => x !== undefined && x.length > 2)
  if (items.length === 0) return ['[]']
  if (items.length === 1) return items[0]!
  return [...items[0]!.slice(0, -1), ',', ...items[1]!.slice(1)]
}
