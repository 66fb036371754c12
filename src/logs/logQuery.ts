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

/** The reply, or why there is none: more logs than allowed, more work than the budget, more bytes than allowed. */
export type LogQueryResult = { json: Uint8Array; count: number } | { overLimit: true } | { overBudget: true } | { tooLarge: true }

/** What one query may return: logs (--rpc.logs.maxresults) and the reply's bytes (--rpc.max-response-size). */
export interface LogLimits {
  maxResults: number
  maxBytes: number
}

/** A bound on a query's work (blocks visited, logs matched), past which it is abandoned to be run elsewhere. */
export interface LogBudget {
  blocks: number
  logs: number
}

const OPEN = 0x5b // [
const COMMA = 0x2c
const CLOSE = 0x5d // ]
const REMOVED_FALSE = Buffer.from('"removed":false}')
const REMOVED_TRUE = Buffer.from('"removed":true}')

/**
 * eth_getLogs over the store: blocks are taken from the log index when the criteria name an address or topic (the
 * most selective position's keys, so a rare address costs its own matches), else every canonical block in range.
 * The reply is the matching logs' stored JSON, concatenated; `removed` rewrites each log's trailing flag. A reply
 * that would pass `limits.maxBytes` is abandoned as soon as it does, so the memory a query takes is bounded too.
 */
export function queryLogs(
  store: ChainStoreReads,
  scope: LogScope,
  criteria: LogCriteria,
  limits: LogLimits,
  removed = false,
  budget?: LogBudget,
): LogQueryResult {
  const out = sink
  out.reset()
  out.byte(OPEN)
  let count = 0
  const outcome = visitMatches(store, scope, criteria, limits.maxResults, budget, (rec, s) => {
    if (count++ > 0) out.byte(COMMA)
    out.push(removed ? withRemoved(rec.subarray(s.jsonAt, s.jsonEnd)) : rec.subarray(s.jsonAt, s.jsonEnd))
    return out.length < limits.maxBytes
  })
  if (outcome === 'overLimit') return { overLimit: true }
  if (outcome === 'overBudget') return { overBudget: true }
  if (outcome === 'stopped') {
    out.reset()
    return { tooLarge: true }
  }
  out.byte(CLOSE)
  // A copy of exactly the reply: the sink is reused, and a view would carry its whole buffer across threads.
  return { json: out.bytes().slice(), count }
}

/** Each matching log's JSON in chain order; undefined when there are more than `maxResults`. */
export function matchingLogs(
  store: ChainStoreReads,
  scope: LogScope,
  criteria: LogCriteria,
  maxResults: number,
  removed = false,
): Uint8Array[] | undefined {
  const parts: Uint8Array[] = []
  const outcome = visitMatches(store, scope, criteria, maxResults, undefined, (rec, s) => {
    const json = rec.slice(s.jsonAt, s.jsonEnd)
    parts.push(removed ? withRemoved(json) : json)
    return true
  })
  return outcome === 'complete' ? parts : undefined
}

/**
 * Calls `visit` with each matching log, in chain order, unless there are more than `maxResults`, the work passes
 * `budget` or `visit` answers false (stopped). `rec` is a transient store view: a visitor copies what it keeps
 * before returning.
 */
function visitMatches(
  store: ChainStoreReads,
  scope: LogScope,
  criteria: LogCriteria,
  maxResults: number,
  budget: LogBudget | undefined,
  visit: (rec: Uint8Array, s: LogSlice) => boolean,
): 'complete' | 'overLimit' | 'overBudget' | 'stopped' {
  let count = 0
  let blocks = 0
  for (const hash of blocksOf(store, scope, criteria, budget)) {
    if (hash === OVER_BUDGET || (budget !== undefined && ++blocks > budget.blocks)) return 'overBudget'
    const rec = store.blockLogsView(hash)
    if (rec === undefined) continue
    let over: 'overLimit' | 'overBudget' | 'stopped' | undefined
    forEachLog(rec, (s) => {
      if (!matches(rec, s, criteria)) return
      if (count === maxResults) over = 'overLimit'
      else if (budget !== undefined && count === budget.logs) over = 'overBudget'
      if (over !== undefined) return false
      count++
      if (visit(rec, s)) return
      over = 'stopped'
      return false
    })
    if (over !== undefined) return over
  }
  return 'complete'
}

/** What blocksOf yields when the index alone lists more candidate blocks than the budget allows. */
const OVER_BUDGET = new Uint8Array(0)

function* blocksOf(store: ChainStoreReads, scope: LogScope, criteria: LogCriteria, budget: LogBudget | undefined): Iterable<Uint8Array> {
  if ('blockHashes' in scope) {
    yield* scope.blockHashes
    return
  }
  const candidates = indexedCandidates(store, scope.from, scope.to, criteria, budget?.blocks)
  if (candidates === 'overBudget') {
    yield OVER_BUDGET
    return
  }
  if (candidates === undefined) {
    for (let n = scope.from; n <= scope.to; n++) {
      const h = store.getCanonicalHash(n)
      if (h !== undefined) yield h
    }
    return
  }
  for (const c of candidates) if (store.isCanonical(c.number, c.hash)) yield c.hash
}

interface Candidate {
  number: bigint
  hash: Uint8Array
}

/**
 * The blocks in range the index lists for the most selective constrained position, ascending and each once;
 * undefined when no position is constrained. Each position's scan stops once it passes the best count so far.
 */
function indexedCandidates(
  store: ChainStoreReads,
  from: bigint,
  to: bigint,
  criteria: LogCriteria,
  maxBlocks = Infinity,
): Candidate[] | undefined | 'overBudget' {
  const positions: { kind: number; values: Uint8Array[] }[] = []
  if (criteria.addresses.length > 0) positions.push({ kind: KIND_ADDRESS, values: criteria.addresses })
  criteria.topics.forEach((set, i) => {
    if (set !== null && set.length > 0) positions.push({ kind: 1 + i, values: set })
  })
  if (positions.length === 0) return undefined
  let best: Candidate[] | undefined
  for (const { kind, values } of positions) {
    // Past the budget a position's scan stops too: if every position has more, the query is over budget.
    const cap = best?.length ?? maxBlocks
    const found: Candidate[] = []
    scan: for (const v of values) {
      const at = 1 + v.length
      for (const k of store.logIndexKeys(indexPrefix(kind, v, from), indexPrefix(kind, v, to + 1n))) {
        found.push({ number: Buffer.from(k.buffer, k.byteOffset + at, 8).readBigUInt64BE(), hash: k.slice(at + 8) })
        if (found.length > cap) break scan
      }
    }
    if (found.length <= cap) best = found
  }
  if (best === undefined) return 'overBudget'
  const sorted = best.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : Buffer.compare(a.hash, b.hash)))
  return sorted.filter((c, i) => i === 0 || c.number !== sorted[i - 1]!.number || Buffer.compare(c.hash, sorted[i - 1]!.hash) !== 0)
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
