import { isZeroRange, lessThan } from './bytes.js'
import type { Fp, Mcl } from './mcl.js'

// Field elements between the precompiles' big-endian encodings and mcl's values. An encoding is `width` bytes: zeros,
// then the element in as many bytes as its modulus has (BN254 and P-256: 32 in 32; BLS12-381: 48 in 64).

/** The field element at `input[offset, offset + width)`, or undefined when it is not below the modulus. */
export function readFp(mcl: Mcl, input: Uint8Array, offset: number, width: number, modulus: Uint8Array): Fp | undefined {
  const start = offset + width - modulus.length
  if (!isZeroRange(input, offset, start) || !lessThan(input, start, modulus)) return undefined
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
