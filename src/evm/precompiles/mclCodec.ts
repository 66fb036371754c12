import { isZeroRange, lessThan } from './bytes.js'
import type { Fp, G1, Mcl } from './mcl.js'

// Field elements between the precompiles' big-endian encodings and mcl's values. An encoding is `width` bytes: zeros,
// then the element in as many bytes as its modulus has (BN254 and P-256: 32 in 32; BLS12-381: 48 in 64). A read that
// fails returns why, in geth's words (gnark-crypto's for a value past the modulus), instead of a value.

/** Padding bytes of a BLS12-381 field element (the first 16 of 64) that are not zero. */
export const TOP_BYTES = 'invalid field element top bytes'
/** A field element not below the modulus (gnark-crypto's SetBytesCanonical). */
export const NON_CANONICAL = 'invalid fp.Element encoding'

/** The field element at `input[offset, offset + width)`, or why it is none. */
export function readFp(mcl: Mcl, input: Uint8Array, offset: number, width: number, modulus: Uint8Array): Fp | string {
  const start = offset + width - modulus.length
  if (!isZeroRange(input, offset, start)) return TOP_BYTES
  if (!lessThan(input, start, modulus)) return NON_CANONICAL
  const fp = new mcl.Fp()
  fp.setBigEndianMod(input.subarray(start, start + modulus.length))
  return fp
}

/** Writes `fp` big-endian into `out[offset, offset + width)` (mcl serializes little-endian, at its modulus' width). */
export function writeFp(fp: Fp, out: Uint8Array, offset: number, width: number): void {
  const le = fp.serialize()
  const end = offset + width - 1
  for (let i = 0; i < le.length; i++) out[end - i] = le[i]!
}

/**
 * A G1 point as x then y, `width` bytes each; all zeros is the point at infinity. Why it is none when a coordinate is
 * not a field element, or `notOnCurve` when the point is off the curve (a subgroup check, where the curve needs one,
 * is the caller's). `one` is the field's 1: an affine point's Z.
 */
export function readG1(mcl: Mcl, input: Uint8Array, offset: number, width: number, modulus: Uint8Array, one: Fp, notOnCurve: string): G1 | string {
  const point = new mcl.G1()
  if (isZeroRange(input, offset, offset + 2 * width)) return point // zero-initialized: the point at infinity
  const x = readFp(mcl, input, offset, width, modulus)
  if (typeof x === 'string') return x
  const y = readFp(mcl, input, offset + width, width, modulus)
  if (typeof y === 'string') return y
  point.setX(x)
  point.setY(y)
  point.setZ(one)
  return point.isValid() ? point : notOnCurve
}

/** A G1 point as readG1 reads it: x then y, `width` bytes each, zeros for the point at infinity. */
export function writeG1(point: G1, width: number): Uint8Array {
  const out = new Uint8Array(2 * width)
  if (point.isZero()) return out
  point.normalize()
  writeFp(point.getX(), out, 0, width)
  writeFp(point.getY(), out, width, width)
  return out
}
