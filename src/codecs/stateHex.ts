// State reads' parameters into reused byte buffers, and their stored values into reply text, without the
// intermediate strings, arrays and BigInts of the general helpers (util/hex.ts): a head read is a few LMDB lookups,
// and these conversions were a large share of its cost.

import { BYTE_TO_HEX, HEX_VALUE } from '../util/hex.js'

function digit(text: string, at: number): number {
  const v = HEX_VALUE[text.charCodeAt(at)] ?? -1
  if (v < 0) throw new Error('invalid hex digit')
  return v
}

/** A 0x-prefixed address (40 digits, either case: the wire pattern) into `out` (20 bytes). */
export function addressInto(text: string, out: Uint8Array): void {
  if (text.length !== 42) throw new Error('address of wrong length')
  for (let i = 0, j = 2; i < 20; i++, j += 2) out[i] = (digit(text, j) << 4) | digit(text, j + 1)
}

/** A storage key as clients send it (0x and 1–64 digits: a quantity or a word) into `out` as a 32-byte word. */
export function slotInto(text: string, out: Uint8Array): void {
  const digits = text.length - 2
  if (digits < 1 || digits > 64) throw new Error('storage key of wrong length')
  out.fill(0)
  // Right-aligned: the last digit is the low nibble of byte 31.
  for (let d = 0; d < digits; d++) {
    const v = digit(text, text.length - 1 - d)
    const at = 31 - (d >> 1)
    out[at] = d & 1 ? out[at]! | (v << 4) : v
  }
}

/** ASCII of the hex digits, by value. */
const DIGIT_BYTES = new TextEncoder().encode('0123456789abcdef')
/** Where quantityHex spells its digits before they become one string. */
let spelled = Buffer.alloc(2 + 64)

/**
 * Bytes `start`…`end` of `b` as a JSON-RPC quantity: minimal hex, "0x0" for none (leading zero bytes skipped).
 * Spelled in bytes and made a string once: a string joined from two-digit pieces is a rope, which the reply writer's
 * character loop then walked at about twice the cost of the flat string (bench:micro, a head balance read).
 */
export function quantityHex(b: Uint8Array, start: number, end: number): string {
  while (start < end && b[start] === 0) start++
  if (start === end) return '0x0'
  if (spelled.length < 2 + 2 * (end - start)) spelled = Buffer.alloc(2 + 2 * (end - start))
  const out = spelled
  out[0] = 0x30
  out[1] = 0x78
  let at = 2
  const first = b[start]!
  if (first >= 16) out[at++] = DIGIT_BYTES[first >> 4]!
  out[at++] = DIGIT_BYTES[first & 15]!
  for (let i = start + 1; i < end; i++) {
    const v = b[i]!
    out[at++] = DIGIT_BYTES[v >> 4]!
    out[at++] = DIGIT_BYTES[v & 15]!
  }
  return out.toString('latin1', 0, at)
}

/** Bytes `start`…`end` of `b` (at most 32) as a 32-byte word, zeros in front. */
export function wordHex(b: Uint8Array, start: number, end: number): string {
  let out = '0x'
  for (let i = end - start; i < 32; i++) out += '00'
  for (let i = start; i < end; i++) out += BYTE_TO_HEX[b[i]!]
  return out
}

/** Bytes `start`…`end` of `b` as 0x-prefixed hex. */
export function bytesHex(b: Uint8Array, start: number, end: number): string {
  // Node's native encoder wins past a few dozen bytes (contract code); the table loop avoids its call overhead below.
  if (end - start > 48) return `0x${Buffer.from(b.buffer, b.byteOffset + start, end - start).toString('hex')}`
  let out = '0x'
  for (let i = start; i < end; i++) out += BYTE_TO_HEX[b[i]!]
  return out
}
