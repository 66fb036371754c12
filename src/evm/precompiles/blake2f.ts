import { failure, outOfGas, success } from './result.js'
import type { PrecompileResult } from './types.js'

// EIP-152: BLAKE2b's compression function F with a caller-chosen number of rounds. 64-bit words are held as (low,
// high) pairs of 32-bit halves: no bigint and no allocation per round.

const INPUT_LENGTH = 213

const IV = Int32Array.from([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a, 0xade682d1, 0x510e527f, 0x2b3e6c1f, 0x9b05688c,
  0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
])

// The message schedule, as word indices doubled (offsets into the 32-bit halves).
const SIGMA = Uint8Array.from(
  [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
  ].flatMap((row) => row.map((i) => i * 2)),
)

// The working vector and message as (low, high) int32 halves: int32 values stay unboxed in V8's optimized code, where
// uint32 ones above 2^31 do not (this layout measured ~2.7× the uint32 one over a million rounds).
const v = new Int32Array(32)
const m = new Int32Array(32)
const h = new Int32Array(16)
const TWO_32 = 0x100000000

/** The mixing function G on words a, b, c, d (offsets into v) with message words x, y (offsets into m). */
function mix(a: number, b: number, c: number, d: number, x: number, y: number): void {
  let al = v[a]!
  let ah = v[a + 1]!
  let bl = v[b]!
  let bh = v[b + 1]!
  let cl = v[c]!
  let ch = v[c + 1]!
  let dl = v[d]!
  let dh = v[d + 1]!
  // a += b + m[x]; the low halves' sum as an unsigned double, its carry into the high half
  let sum = (al >>> 0) + (bl >>> 0) + (m[x]! >>> 0)
  ah = (ah + bh + m[x + 1]! + ((sum / TWO_32) | 0)) | 0
  al = sum | 0
  let lo = dl ^ al // d = (d ^ a) >>> 32
  dl = dh ^ ah
  dh = lo
  sum = (cl >>> 0) + (dl >>> 0) // c += d
  ch = (ch + dh + ((sum / TWO_32) | 0)) | 0
  cl = sum | 0
  lo = bl ^ cl // b = (b ^ c) >>> 24
  let hi = bh ^ ch
  bl = (lo >>> 24) | (hi << 8)
  bh = (hi >>> 24) | (lo << 8)
  sum = (al >>> 0) + (bl >>> 0) + (m[y]! >>> 0) // a += b + m[y]
  ah = (ah + bh + m[y + 1]! + ((sum / TWO_32) | 0)) | 0
  al = sum | 0
  lo = dl ^ al // d = (d ^ a) >>> 16
  hi = dh ^ ah
  dl = (lo >>> 16) | (hi << 16)
  dh = (hi >>> 16) | (lo << 16)
  sum = (cl >>> 0) + (dl >>> 0) // c += d
  ch = (ch + dh + ((sum / TWO_32) | 0)) | 0
  cl = sum | 0
  lo = bl ^ cl // b = (b ^ c) >>> 63
  hi = bh ^ ch
  bl = (hi >>> 31) | (lo << 1)
  bh = (lo >>> 31) | (hi << 1)
  v[a] = al
  v[a + 1] = ah
  v[b] = bl
  v[b + 1] = bh
  v[c] = cl
  v[c + 1] = ch
  v[d] = dl
  v[d + 1] = dh
}

/** The little-endian 32-bit word at `offset`, as an int32. */
function readWord32(input: Uint8Array, offset: number): number {
  return input[offset]! | (input[offset + 1]! << 8) | (input[offset + 2]! << 16) | (input[offset + 3]! << 24)
}

/**
 * 0x09: gas is the number of rounds; the input must be exactly 213 bytes with a final-block flag of 0 or 1. geth's
 * order of refusals: a bad length first (it prices such an input at 0), then the gas, then the flag.
 */
export function blake2f(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (input.length !== INPUT_LENGTH) return failure(gasLimit, 'invalid input length')
  const rounds = ((input[0]! << 24) | (input[1]! << 16) | (input[2]! << 8) | input[3]!) >>> 0
  if (gasLimit < rounds) return outOfGas(gasLimit)
  const final = input[212]!
  if (final > 1) return failure(gasLimit, 'invalid final flag')
  for (let i = 0; i < 16; i++) h[i] = readWord32(input, 4 + 4 * i)
  for (let i = 0; i < 32; i++) m[i] = readWord32(input, 68 + 4 * i)
  v.set(h)
  v.set(IV, 16)
  // The offset counter t: two words, each low half first.
  v[24] = v[24]! ^ readWord32(input, 196)
  v[25] = v[25]! ^ readWord32(input, 200)
  v[26] = v[26]! ^ readWord32(input, 204)
  v[27] = v[27]! ^ readWord32(input, 208)
  if (final === 1) {
    v[28] = ~v[28]!
    v[29] = ~v[29]!
  }
  for (let r = 0; r < rounds; r++) {
    const s = (r % 10) * 16
    mix(0, 8, 16, 24, SIGMA[s]!, SIGMA[s + 1]!)
    mix(2, 10, 18, 26, SIGMA[s + 2]!, SIGMA[s + 3]!)
    mix(4, 12, 20, 28, SIGMA[s + 4]!, SIGMA[s + 5]!)
    mix(6, 14, 22, 30, SIGMA[s + 6]!, SIGMA[s + 7]!)
    mix(0, 10, 20, 30, SIGMA[s + 8]!, SIGMA[s + 9]!)
    mix(2, 12, 22, 24, SIGMA[s + 10]!, SIGMA[s + 11]!)
    mix(4, 14, 16, 26, SIGMA[s + 12]!, SIGMA[s + 13]!)
    mix(6, 8, 18, 28, SIGMA[s + 14]!, SIGMA[s + 15]!)
  }
  const output = new Uint8Array(64)
  for (let i = 0; i < 16; i++) {
    const word = h[i]! ^ v[i]! ^ v[i + 16]!
    output[4 * i] = word
    output[4 * i + 1] = word >>> 8
    output[4 * i + 2] = word >>> 16
    output[4 * i + 3] = word >>> 24
  }
  return success(rounds, output)
}
