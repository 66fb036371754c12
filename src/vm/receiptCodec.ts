import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import type { Log } from '../evm/state.js'
import { addressToBytes, wordToBytes } from '../evm/words.js'
import type { RawLog } from '../codecs/receipt.js'

// A receipt's consensus encoding (what the receipts trie holds) and the logs bloom, from the EVM's own logs: what a
// block made on Sponge's EVM needs of its receipts, without EthereumJS's receipt objects.

const NO_BYTES = new Uint8Array()
const SUCCESS = Uint8Array.of(1)

/** Sets a value's three bits (yellow paper 4.3.1: the low 11 bits of the first three byte pairs of its hash). */
function addToBloom(bloom: Uint8Array, value: Uint8Array): void {
  const h = keccak256(value)
  for (let i = 0; i < 6; i += 2) {
    const bit = ((h[i]! << 8) | h[i + 1]!) & 2047
    bloom[255 - (bit >> 3)]! |= 1 << (bit & 7)
  }
}

/** Adds logs' addresses and topics to a 256-byte bloom (a new one unless given). */
export function logsBloom(logs: readonly Log[], into: Uint8Array = new Uint8Array(256)): Uint8Array {
  for (const log of logs) {
    addToBloom(into, addressToBytes(log.address))
    for (const t of log.topics) addToBloom(into, wordToBytes(t))
  }
  return into
}

/**
 * A receipt's encoding: RLP [status, cumulative gas, bloom, logs], after the type byte for a typed transaction. Before
 * Byzantium the first field is the state root after the transaction (`outcome` as its 32 bytes).
 */
export function encodeReceipt(
  type: number,
  outcome: boolean | Uint8Array,
  cumulativeGasUsed: bigint,
  bloom: Uint8Array,
  logs: readonly Log[],
): Uint8Array {
  const body = RLP.encode([
    outcome instanceof Uint8Array ? outcome : outcome ? SUCCESS : NO_BYTES,
    bigIntToUnpaddedBytes(cumulativeGasUsed),
    bloom,
    logs.map((l) => [addressToBytes(l.address), l.topics.map(wordToBytes), l.data]),
  ])
  if (type === 0) return body
  const out = new Uint8Array(body.length + 1)
  out[0] = type
  out.set(body, 1)
  return out
}

/** Adds raw logs' addresses and topics (already bytes) to a 256-byte bloom. */
export function rawLogsBloom(logs: readonly RawLog[], into: Uint8Array): Uint8Array {
  for (const [address, topics] of logs) {
    addToBloom(into, address)
    for (const t of topics) addToBloom(into, t)
  }
  return into
}

/** A block's gas so far as minimal big-endian bytes: below 2^53, as every real block's, without a hex string. */
function gasBytes(v: bigint): Uint8Array {
  if (v > MAX_SAFE) return bigIntToUnpaddedBytes(v)
  const n = Number(v)
  let len = 0
  for (let x = n; x > 0; x = Math.floor(x / 256)) len++
  const out = new Uint8Array(len)
  for (let i = len - 1, x = n; i >= 0; i--, x = Math.floor(x / 256)) out[i] = x % 256
  return out
}
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** Bytes of an RLP header for `n` bytes of content (the single-byte string case aside). */
const headerLength = (n: number): number => (n < 56 ? 1 : n < 0x100 ? 2 : n < 0x10000 ? 3 : n < 0x1000000 ? 4 : 5)
/** A byte string's item length. */
const stringLength = (b: Uint8Array): number => (b.length === 1 && b[0]! < 0x80 ? 1 : headerLength(b.length) + b.length)

/**
 * A block's receipts' consensus encodings (as encodeReceipt makes each) written one after another into one buffer
 * that grows by doubling, and each block's blooms handed out of one slab: a receipt costs no allocations of its own
 * beyond its views, where encodeReceipt built each from nested arrays and a copy of its logs.
 */
export class BlockReceiptsEncoder {
  private buf: Uint8Array
  private at = 0
  private readonly ends: number[] = []
  private blooms = new Uint8Array(0)
  private bloomAt = 0

  constructor(expectedReceipts = 64) {
    this.buf = new Uint8Array(expectedReceipts * 450)
  }

  /** A zeroed 256-byte bloom, a view of this block's slab. */
  newBloom(): Uint8Array {
    if (this.bloomAt === this.blooms.length) {
      this.blooms = new Uint8Array(256 * 64)
      this.bloomAt = 0
    }
    const b = this.blooms.subarray(this.bloomAt, this.bloomAt + 256)
    this.bloomAt += 256
    return b
  }

  /** Appends a receipt: see encodeReceipt. */
  add(type: number, outcome: boolean | Uint8Array, cumulativeGasUsed: bigint, bloom: Uint8Array, logs: readonly RawLog[]): void {
    const gas = gasBytes(cumulativeGasUsed)
    let logsPayload = 0
    for (const [address, topics, data] of logs) {
      const topicsPayload = 33 * topics.length
      const payload = stringLength(address) + headerLength(topicsPayload) + topicsPayload + stringLength(data)
      logsPayload += headerLength(payload) + payload
    }
    const outcomeLength = outcome instanceof Uint8Array ? stringLength(outcome) : 1
    const payload = outcomeLength + stringLength(gas) + 3 + 256 + headerLength(logsPayload) + logsPayload
    const total = (type === 0 ? 0 : 1) + headerLength(payload) + payload
    this.reserve(total)
    if (type !== 0) this.buf[this.at++] = type
    this.header(0xc0, payload)
    if (outcome instanceof Uint8Array) this.string(outcome)
    else this.buf[this.at++] = outcome ? 0x01 : 0x80
    this.string(gas)
    this.string(bloom)
    this.header(0xc0, logsPayload)
    for (const [address, topics, data] of logs) {
      const topicsPayload = 33 * topics.length
      this.header(0xc0, stringLength(address) + headerLength(topicsPayload) + topicsPayload + stringLength(data))
      this.string(address)
      this.header(0xc0, topicsPayload)
      for (const t of topics) this.string(t)
      this.string(data)
    }
    this.ends.push(this.at)
  }

  /** Each receipt's encoding, in order: views of the one buffer. */
  encodings(): Uint8Array[] {
    const out: Uint8Array[] = new Array(this.ends.length)
    let start = 0
    for (let i = 0; i < this.ends.length; i++) {
      out[i] = this.buf.subarray(start, this.ends[i]!)
      start = this.ends[i]!
    }
    return out
  }

  private reserve(n: number): void {
    if (this.at + n <= this.buf.length) return
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.at + n))
    grown.set(this.buf.subarray(0, this.at))
    this.buf = grown
  }

  private header(base: number, n: number): void {
    const b = this.buf
    if (n < 56) {
      b[this.at++] = base + n
      return
    }
    const bytes = headerLength(n) - 1
    b[this.at++] = base + 55 + bytes
    for (let i = bytes - 1; i >= 0; i--) b[this.at++] = (n / 2 ** (8 * i)) & 0xff
  }

  private string(s: Uint8Array): void {
    if (s.length === 1 && s[0]! < 0x80) {
      this.buf[this.at++] = s[0]!
      return
    }
    this.header(0x80, s.length)
    this.buf.set(s, this.at)
    this.at += s.length
  }
}
