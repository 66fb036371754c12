import type { ChainStoreReads } from '../store/chainStore.js'
import { type LogSlice, KIND_ADDRESS, forEachLog, indexPrefix } from '../store/blockLogs.js'

/** What a log must carry to match: any of `addresses` (none: any), and at each topic position any of its set. */
export interface LogCriteria {
  addresses: Uint8Array[]
  /** Per position; null or empty is a wildcard. A log with fewer topics than positions never matches (as geth). */
  topics: (Uint8Array[] | null)[]
}

/** Canonical blocks `from`..`to`, or the given blocks whatever their status (a filter's removed logs). */
export type LogScope = { from: bigint; to: bigint } | { blockHashes: Uint8Array[] }

/**
 * What one slice of a query found: the matching logs' JSON joined by commas (no brackets), how many, the blocks it
 * visited, and the block number the range's scan goes on from (undefined: the scope is done). Or why there is no
 * reply: more logs than allowed, more bytes than allowed.
 */
export type LogSliceResult = { json: Uint8Array; count: number; visited: number; next: bigint | undefined } | { overLimit: true } | { tooLarge: true }

/** What one slice may return: logs (what --rpc.logs.maxresults leaves) and bytes (what the reply bound leaves). */
export interface LogLimits {
  maxResults: number
  maxBytes: number
}

/**
 * A slice's work: blocks visited and logs looked at, matching or not. A slice stops at the end of the block that
 * reaches either, so that one query cannot hold a thread for long: its caller goes on from `next` in a later turn.
 */
export interface LogBudget {
  blocks: number
  logs: number
}

const COMMA = 0x2c
const REMOVED_FALSE = Buffer.from('"removed":false}')
const REMOVED_TRUE = Buffer.from('"removed":true}')

/**
 * One slice of eth_getLogs over the store: blocks are taken from the log index when the criteria name an address or
 * topic (the most selective position's keys, so a rare address costs its own matches), else every canonical block in
 * range, from `scope.from` on until `budget` is reached (a hash scope is small and done whole). The logs are their
 * stored JSON, concatenated; `removed` rewrites each log's trailing flag. A slice that would pass `limits.maxBytes`
 * is abandoned as soon as it does, so the memory a slice takes is bounded too.
 */
export function scanLogs(
  store: ChainStoreReads,
  scope: LogScope,
  criteria: LogCriteria,
  limits: LogLimits,
  removed = false,
  budget?: LogBudget,
): LogSliceResult {
  const out = sink
  out.reset()
  let count = 0
  const plan = planOf(store, scope, criteria, 'from' in scope ? budget : undefined)
  const outcome = visitMatches(store, plan, criteria, limits.maxResults, plan.bounded ? budget : undefined, (rec, s) => {
    if (count++ > 0) out.byte(COMMA)
    out.push(removed ? withRemoved(rec.subarray(s.jsonAt, s.jsonEnd)) : rec.subarray(s.jsonAt, s.jsonEnd))
    return out.length <= limits.maxBytes
  })
  if (outcome === 'overLimit') return { overLimit: true }
  if (outcome === 'stopped') {
    out.reset()
    return { tooLarge: true }
  }
  const next = 'from' in scope && outcome.next !== undefined && outcome.next <= scope.to ? outcome.next : undefined
  // A copy of exactly the slice: the sink is reused, and a view would carry its whole buffer across threads.
  return { json: out.bytes().slice(), count, visited: outcome.visited, next }
}

/** A whole query in one go, as a JSON array (no budget: tests, and callers whose scope is small). */
export function queryLogs(
  store: ChainStoreReads,
  scope: LogScope,
  criteria: LogCriteria,
  limits: LogLimits,
  removed = false,
): { json: Uint8Array; count: number } | { overLimit: true } | { tooLarge: true } {
  const r = scanLogs(store, scope, criteria, { maxResults: limits.maxResults, maxBytes: limits.maxBytes - 2 }, removed)
  if (!('json' in r)) return r
  return { json: Buffer.concat([OPEN, r.json, CLOSE]), count: r.count }
}

const OPEN = Buffer.from('[')
const CLOSE = Buffer.from(']')

/** Each matching log's JSON in chain order; undefined when there are more than `maxResults`. */
export function matchingLogs(
  store: ChainStoreReads,
  scope: LogScope,
  criteria: LogCriteria,
  maxResults: number,
  removed = false,
): Uint8Array[] | undefined {
  const parts: Uint8Array[] = []
  const outcome = visitMatches(store, planOf(store, scope, criteria, undefined), criteria, maxResults, undefined, (rec, s) => {
    const json = rec.slice(s.jsonAt, s.jsonEnd)
    parts.push(removed ? withRemoved(json) : json)
    return true
  })
  return typeof outcome === 'object' ? parts : undefined
}

interface Candidate {
  number: bigint
  hash: Uint8Array
}

/**
 * The blocks a slice visits, in order; `end` is the first block number the index lookup did not cover (undefined:
 * all of the scope). `bounded`: the visit may stop early under the budget (a range scope).
 */
interface Plan {
  blocks: Iterable<Candidate>
  end: bigint | undefined
  bounded: boolean
}

function planOf(store: ChainStoreReads, scope: LogScope, criteria: LogCriteria, budget: LogBudget | undefined): Plan {
  if ('blockHashes' in scope) return { blocks: scope.blockHashes.map((hash) => ({ number: -1n, hash })), end: undefined, bounded: false }
  const indexed = indexedCandidates(store, scope.from, scope.to, criteria, budget?.blocks)
  if (indexed === undefined) return { blocks: canonical(store, scope.from, scope.to), end: undefined, bounded: true }
  return { blocks: indexed.blocks.filter((c) => store.isCanonical(c.number, c.hash)), end: indexed.end, bounded: true }
}

function* canonical(store: ChainStoreReads, from: bigint, to: bigint): Iterable<Candidate> {
  for (let n = from; n <= to; n++) {
    const hash = store.getCanonicalHash(n)
    if (hash !== undefined) yield { number: n, hash }
  }
}

/**
 * Calls `visit` with each matching log, in chain order, unless there are more than `maxResults` or `visit` answers
 * false (stopped); with a budget, stops after the block that reaches it, naming the block to go on from. `rec` is a
 * transient store view: a visitor copies what it keeps before returning.
 */
function visitMatches(
  store: ChainStoreReads,
  plan: Plan,
  criteria: LogCriteria,
  maxResults: number,
  budget: LogBudget | undefined,
  visit: (rec: Uint8Array, s: LogSlice) => boolean,
): { next: bigint | undefined; visited: number } | 'overLimit' | 'stopped' {
  let count = 0
  let blocks = 0
  let logs = 0
  for (const c of plan.blocks) {
    blocks++
    const rec = store.blockLogsView(c.hash)
    if (rec === undefined) continue
    let over: 'overLimit' | 'stopped' | undefined
    forEachLog(rec, (s) => {
      logs++
      if (!matches(rec, s, criteria)) return
      if (count === maxResults) over = 'overLimit'
      if (over !== undefined) return false
      count++
      if (visit(rec, s)) return
      over = 'stopped'
      return false
    })
    if (over !== undefined) return over
    if (budget !== undefined && (blocks >= budget.blocks || logs >= budget.logs)) return { next: c.number + 1n, visited: blocks }
  }
  return { next: plan.end, visited: blocks }
}

/**
 * The blocks in range the index lists for the most selective constrained position, ascending and each once;
 * undefined when no position is constrained. With a cap, a position's lookup stops once it has read that many keys
 * (and its values' keys from there on are left for the next slice: `end`); the position covering the most of the
 * range is taken, and of those covering it all the one with the fewest blocks.
 */
function indexedCandidates(
  store: ChainStoreReads,
  from: bigint,
  to: bigint,
  criteria: LogCriteria,
  cap = Number.POSITIVE_INFINITY,
): { blocks: Candidate[]; end: bigint | undefined } | undefined {
  const positions: { kind: number; values: Uint8Array[] }[] = []
  if (criteria.addresses.length > 0) positions.push({ kind: KIND_ADDRESS, values: criteria.addresses })
  criteria.topics.forEach((set, i) => {
    if (set !== null && set.length > 0) positions.push({ kind: 1 + i, values: set })
  })
  if (positions.length === 0) return undefined
  let best: { blocks: Candidate[]; limit: bigint } | undefined
  for (const { kind, values } of positions) {
    // The first block number whose keys were not all read: the position's candidates are complete below it.
    let limit = to + 1n
    let found: Candidate[] = []
    for (const v of values) {
      const at = 1 + v.length
      let last = -1n
      for (const k of store.logIndexKeys(indexPrefix(kind, v, from), indexPrefix(kind, v, limit))) {
        const number = Buffer.from(k.buffer, k.byteOffset + at, 8).readBigUInt64BE()
        // Past the cap the lookup stops between two block numbers, never inside one (the range would not move on).
        if (found.length >= cap && number !== last) {
          limit = number
          found = found.filter((c) => c.number < limit)
          break
        }
        last = number
        found.push({ number, hash: k.slice(at + 8) })
      }
    }
    if (best === undefined || limit > best.limit || (limit === best.limit && found.length < best.blocks.length)) best = { blocks: found, limit }
  }
  const sorted = best!.blocks.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : Buffer.compare(a.hash, b.hash)))
  const blocks = sorted.filter((c, i) => i === 0 || c.number !== sorted[i - 1]!.number || Buffer.compare(c.hash, sorted[i - 1]!.hash) !== 0)
  return { blocks, end: best!.limit > to ? undefined : best!.limit }
}

function matches(rec: Uint8Array, s: LogSlice, c: LogCriteria): boolean {
  if (c.addresses.length > 0 && !c.addresses.some((a) => equalAt(rec, s.addressAt, a))) return false
  if (c.topics.length > s.topicCount) return false
  for (let i = 0; i < c.topics.length; i++) {
    const set = c.topics[i]
    if (set === null || set === undefined || set.length === 0) continue
    const at = s.topicsAt + 32 * i
    if (!set.some((t) => equalAt(rec, at, t))) return false
  }
  return true
}

function equalAt(rec: Uint8Array, at: number, v: Uint8Array): boolean {
  for (let i = v.length - 1; i >= 0; i--) if (rec[at + i] !== v[i]) return false
  return true
}

function withRemoved(json: Uint8Array): Uint8Array {
  const tail = json.length - REMOVED_FALSE.length
  if (tail < 0 || Buffer.compare(json.subarray(tail), REMOVED_FALSE) !== 0) return json
  const out = new Uint8Array(tail + REMOVED_TRUE.length)
  out.set(json.subarray(0, tail))
  out.set(REMOVED_TRUE, tail)
  return out
}

/** A growing byte buffer, reused from query to query: the reply is assembled in one place without regrowing. */
const SINK_START_BYTES = 16 * 1024
const SINK_KEEP_BYTES = 4 * 1024 * 1024

class ByteSink {
  private buf = new Uint8Array(SINK_START_BYTES)
  private len = 0

  byte(b: number): void {
    this.reserve(1)
    this.buf[this.len++] = b
  }

  push(src: Uint8Array): void {
    this.reserve(src.length)
    this.buf.set(src, this.len)
    this.len += src.length
  }

  get length(): number {
    return this.len
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.len)
  }

  reset(): void {
    this.len = 0
    // One huge reply must not pin its buffer for the life of the thread.
    if (this.buf.length > SINK_KEEP_BYTES) this.buf = new Uint8Array(SINK_START_BYTES)
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n))
    next.set(this.buf.subarray(0, this.len))
    this.buf = next
  }
}

const sink = new ByteSink()
