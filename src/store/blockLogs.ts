import { numberKey, readUint32, writeUint32 } from './layout.js'

/**
 * A block's logs as stored (`blockLogs`, by block hash): per log its address and topics, which filters match on
 * without decoding anything, and its reply JSON, spliced into eth_getLogs replies as it is.
 *
 *   log := address (20) ‖ topic count (1) ‖ topics (32 each) ‖ JSON length (u32 BE) ‖ JSON (UTF-8)
 */
export interface LogEntry {
  address: Uint8Array
  topics: Uint8Array[]
  /** Its reply, UTF-8 JSON. */
  json: Uint8Array
}

export function encodeBlockLogs(logs: LogEntry[]): Uint8Array {
  let size = 0
  for (let i = 0; i < logs.length; i++) size += 25 + 32 * logs[i]!.topics.length + logs[i]!.json.length
  const out = new Uint8Array(size)
  let at = 0
  logs.forEach((l) => {
    out.set(l.address, at)
    out[at + 20] = l.topics.length
    at += 21
    for (const t of l.topics) {
      out.set(t, at)
      at += 32
    }
    const json = l.json
    writeUint32(out, at, json.length)
    out.set(json, at + 4)
    at += 4 + json.length
  })
  return out
}

/** Where one stored log's parts lie in its block's record. */
export interface LogSlice {
  /** Offset of the 20-byte address; topic k starts at topicsAt + 32k. */
  addressAt: number
  topicCount: number
  topicsAt: number
  jsonAt: number
  jsonEnd: number
}

/** Visits each log of a stored record in order; stops when the visitor returns false. */
export function forEachLog(rec: Uint8Array, visit: (s: LogSlice) => boolean | undefined): void {
  let at = 0
  while (at < rec.length) {
    const topicCount = rec[at + 20]!
    const topicsAt = at + 21
    const lenAt = topicsAt + 32 * topicCount
    const len = readUint32(rec, lenAt)
    const s = { addressAt: at, topicCount, topicsAt, jsonAt: lenAt + 4, jsonEnd: lenAt + 4 + len }
    if (visit(s) === false) return
    at = s.jsonEnd
  }
}

/**
 * The log index (`logIndex`): one key per block for each address that logged in it and each topic at each
 * position, with no value. Keys carry the block hash, so the index is written when a block is executed, whether or
 * not it becomes canonical; a query keeps the keys whose hash is canonical at their height, so a reorg needs no
 * rewrite.
 *
 *   key := kind (1: 0 = address, 1..4 = topic position 0..3) ‖ address (20) or topic (32) ‖ number (8 BE) ‖ hash (32)
 */
export const KIND_ADDRESS = 0

export function indexPrefix(kind: number, value: Uint8Array, number: bigint): Uint8Array {
  const k = new Uint8Array(1 + value.length + 8)
  k[0] = kind
  k.set(value, 1)
  k.set(numberKey(number), 1 + value.length)
  return k
}

export function indexKey(kind: number, value: Uint8Array, number: bigint, blockHash: Uint8Array): Uint8Array {
  const p = indexPrefix(kind, value, number)
  const k = new Uint8Array(p.length + 32)
  k.set(p)
  k.set(blockHash, p.length)
  return k
}

/** The index keys of one block's logs, each once. */
export function blockIndexKeys(logs: LogEntry[], number: bigint, blockHash: Uint8Array): Uint8Array[] {
  const seen = new Set<string>()
  const keys: Uint8Array[] = []
  const add = (kind: number, value: Uint8Array) => {
    const id = `${kind}${Buffer.from(value.buffer, value.byteOffset, value.length).toString('hex')}`
    if (seen.has(id)) return
    seen.add(id)
    keys.push(indexKey(kind, value, number, blockHash))
  }
  for (const l of logs) {
    add(KIND_ADDRESS, l.address)
    for (let i = 0; i < l.topics.length; i++) add(1 + i, l.topics[i]!)
  }
  return keys
}
