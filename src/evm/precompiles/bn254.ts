import { unprefixedHexToBytes } from '../../util/hex.js'
import { isZeroRange, padRight } from './bytes.js'
import { type G1, type G2, loadMcl, type Mcl } from './mcl.js'
import { readFp, readG1 as readCodecG1, writeG1 as writeCodecG1 } from './mclCodec.js'
import { failure, success } from './result.js'
import type { PrecompileResult } from './types.js'

// EIP-196/197 over alt_bn128 at Istanbul's prices (EIP-1108). Coordinates are 32-byte big-endian below p; (0, 0) is
// the point at infinity; G2 coordinates are written imaginary part first.

export const BN254_ADD_GAS = 150
export const BN254_MUL_GAS = 6000
export const BN254_PAIRING_BASE_GAS = 45000
export const BN254_PAIRING_PER_PAIR_GAS = 34000

const mcl = await loadMcl((m) => m.BN_SNARK1)
const P = unprefixedHexToBytes('30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47')
const ONE = new mcl.Fp()
ONE.setInt(1)
const ONE2 = new mcl.Fp2()
ONE2.setInt(1, 0)

/** A G1 point on the curve (G1 has no cofactor: that is its whole check). */
const readG1 = (input: Uint8Array, offset: number): G1 | undefined => readCodecG1(mcl, input, offset, 32, P, ONE)
const writeG1 = (point: G1): Uint8Array => writeCodecG1(point, 32)

/** A G2 point, on the twist and in the order-r subgroup (the twist has other points; G1 has no cofactor). */
function readG2(input: Uint8Array, offset: number): G2 | undefined {
  const point = new mcl.G2()
  if (isZeroRange(input, offset, offset + 128)) return point
  const xIm = readFp(mcl, input, offset, 32, P)
  const xRe = readFp(mcl, input, offset + 32, 32, P)
  const yIm = readFp(mcl, input, offset + 64, 32, P)
  const yRe = readFp(mcl, input, offset + 96, 32, P)
  if (xIm === undefined || xRe === undefined || yIm === undefined || yRe === undefined) return undefined
  const x = new mcl.Fp2()
  x.set_a(xRe)
  x.set_b(xIm)
  const y = new mcl.Fp2()
  y.set_a(yRe)
  y.set_b(yIm)
  point.setX(x)
  point.setY(y)
  point.setZ(ONE2)
  return point.isValid() && point.isValidOrder() ? point : undefined
}

/** 0x06: the sum of two G1 points; the input is read as 128 bytes (zeros past its end, the rest ignored). */
export function bn254Add(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < BN254_ADD_GAS) return failure(gasLimit)
  const data = padRight(input, 128)
  const a = readG1(data, 0)
  const b = readG1(data, 64)
  if (a === undefined || b === undefined) return failure(gasLimit)
  return success(BN254_ADD_GAS, writeG1(mcl.add(a, b)))
}

/** 0x07: a G1 point times a 256-bit scalar (any value: G1's order is prime, so it is taken mod r); 96 bytes read. */
export function bn254Mul(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < BN254_MUL_GAS) return failure(gasLimit)
  const data = padRight(input, 96)
  const point = readG1(data, 0)
  if (point === undefined) return failure(gasLimit)
  const scalar = new mcl.Fr()
  scalar.setBigEndianMod(data.subarray(64, 96))
  return success(BN254_MUL_GAS, writeG1(mcl.mul(point, scalar)))
}

export function bn254PairingGas(length: number): number {
  return BN254_PAIRING_BASE_GAS + BN254_PAIRING_PER_PAIR_GAS * Math.floor(length / 192)
}

/** 0x08: whether the product of the pairings of 192-byte (G1, G2) pairs is one; the empty product is. */
export function bn254Pairing(input: Uint8Array, gasLimit: number): PrecompileResult {
  const gas = bn254PairingGas(input.length)
  if (gasLimit < gas || input.length % 192 !== 0) return failure(gasLimit)
  let product: ReturnType<Mcl['millerLoop']> | undefined
  for (let offset = 0; offset < input.length; offset += 192) {
    const g1 = readG1(input, offset)
    const g2 = readG2(input, offset + 64)
    if (g1 === undefined || g2 === undefined) return failure(gasLimit)
    if (g1.isZero() || g2.isZero()) continue // e(O, Q) = e(P, O) = 1; every point is checked all the same
    const loop = mcl.millerLoop(g1, g2)
    product = product === undefined ? loop : mcl.mul(product, loop)
  }
  const output = new Uint8Array(32)
  if (product === undefined || mcl.finalExp(product).isOne()) output[31] = 1
  return success(gas, output)
}
