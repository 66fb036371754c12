import type { ChainStore } from '../store/chainStore.js'
import { type LogSlice, KIND_ADDRESS, forEachLog, indexPrefix } from './blockLogs.js'

/** What a log must carry to match: any of `addresses` (none: any), and at each topic position any of its set. */
export interface LogCriteria {
  addresses: Uint8Array[]
  /** Per position; null or empty is a wildcard. A log with fewer topics than positions never matches (as geth). */
  topics: (Uint8Array[] | null)[]
}

/** Canonical blocks `from`..`to`, or the given blocks whatever their status (a filter's removed logs). */
export type LogScope = { from: bigint; to: bigint } | { blockHashes: Uint8Array[] }

export type LogQueryResult = { json: Uint8Array; count: number } | { overLimit: true }

const OPEN = 0x5b // [
const COMMA = 0x2c
const CLOSE = 0x5d // ]
const REMOVED_FALSE = Buffer.from('"removed":false}')
const REMOVED_TRUE = Buffer.from('"removed":true}')

/**
 * eth_getLogs over the store: blocks are taken from the log index when the criteria name an address or topic (the
 * most selective position's keys, so a rare address costs its own matches), else every canonical block in range.
 * The reply is the matching logs' stored JSON, concatenated; `removed` rewrites each log's trailing flag.
 */
export function queryLogs(
  store: ChainStore,
  scope: LogScope,
  criteria: LogCriteria,
  maxResults: number,
  removed = false,
): LogQueryResult {
  const parts: Uint8Array[] = []
  let size = 2
  let count = 0
  for (const hash of blocksOf(store, scope, criteria)) {
    const rec = store.getBlockLogs(hash)
    if (rec === undefined) continue
    let over = false
    forEachLog(rec, (s) => {
      if (!matches(rec, s, criteria)) return
      if (++count > maxResults) {
        over = true
        return false
      }
      const json = removed ? withRemoved(rec.subarray(s.jsonAt, s.jsonEnd)) : rec.subarray(s.jsonAt, s.jsonEnd)
      parts.push(json)
      size += json.length + 1
    })
    if (over) return { overLimit: true }
  }
  return { json: join(parts, size), count }
}

function* blocksOf(store: ChainStore, scope: LogScope, criteria: LogCriteria): Iterable<Uint8Array> {
  if ('blockHashes' in scope) {
    yield* scope.blockHashes
    return
  }
  const candidates = indexedCandidates(store, scope.from, scope.to, criteria)
  if (candidates === undefined) {
    for (let n = scope.from; n <= scope.to; n++) {
      const h = store.getCanonicalHash(n)
      if (h !== undefined) yield h
    }
    return
  }
  for (const c of candidates) {
    const canonical = store.getCanonicalHash(c.number)
    if (canonical !== undefined && Buffer.compare(canonical, c.hash) === 0) yield c.hash
  }
}

interface Candidate {
  number: bigint
  hash: Uint8Array
}

/**
 * The blocks in range the index lists for the most selective constrained position, ascending and each once;
 * undefined when no position is constrained. Each position's scan stops once it passes the best count so far.
 */
function indexedCandidates(store: ChainStore, from: bigint, to: bigint, criteria: LogCriteria): Candidate[] | undefined {
  const positions: { kind: number; values: Uint8Array[] }[] = []
  if (criteria.addresses.length > 0) positions.push({ kind: KIND_ADDRESS, values: criteria.addresses })
  criteria.topics.forEach((set, i) => {
    if (set !== null && set.length > 0) positions.push({ kind: 1 + i, values: set })
  })
  if (positions.length === 0) return undefined
  const db = store.db('logIndex')
  let best: Candidate[] | undefined
  for (const { kind, values } of positions) {
    const cap = best?.length ?? Infinity
    const found: Candidate[] = []
    scan: for (const v of values) {
      const at = 1 + v.length
      for (const key of db.getKeys({ start: indexPrefix(kind, v, from), end: indexPrefix(kind, v, to + 1n) })) {
        const k = key as Uint8Array
        found.push({ number: Buffer.from(k.buffer, k.byteOffset + at, 8).readBigUInt64BE(), hash: k.slice(at + 8) })
        if (found.length > cap) break scan
      }
    }
    if (found.length <= cap) best = found
  }
  const sorted = best!.sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : Buffer.compare(a.hash, b.hash)))
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

function join(parts: Uint8Array[], size: number): Uint8Array {
  // `size` counted a comma after every part: one more than the commas between them.
  const out = new Uint8Array(Math.max(size - 1, 2))
  let at = 0
  out[at++] = OPEN
  parts.forEach((p, i) => {
    if (i > 0) out[at++] = COMMA
    out.set(p, at)
    at += p.length
  })
  out[at++] = CLOSE
  return out
}
