import { Fork } from '../../chain/evmFork.js'
import { unprefixedHexToBytes } from '../../util/hex.js'
import { isZeroRange, padRight } from './bytes.js'
import { curveOnFirstUse, type Fp, type Fp2, type G1, type G2, type Mcl } from './mcl.js'
import { readFp, readG1 as readCodecG1, writeG1 as writeCodecG1 } from './mclCodec.js'
import { failure, outOfGas, success } from './result.js'
import type { PrecompileResult } from './types.js'

// EIP-196/197 over alt_bn128 (Byzantium), repriced by EIP-1108 (Istanbul): each takes the fork it is called in (the
// latest prices when none is given). Coordinates are 32-byte big-endian below p; (0, 0) is the point at infinity; G2
// coordinates are written imaginary part first.

export const BN254_ADD_GAS = 150
export const BN254_MUL_GAS = 6000
export const BN254_PAIRING_BASE_GAS = 45000
export const BN254_PAIRING_PER_PAIR_GAS = 34000
/** EIP-196/197's prices, before EIP-1108. */
export const BN254_ADD_GAS_BYZANTIUM = 500
export const BN254_MUL_GAS_BYZANTIUM = 40000
export const BN254_PAIRING_BASE_GAS_BYZANTIUM = 100000
export const BN254_PAIRING_PER_PAIR_GAS_BYZANTIUM = 80000

const P = unprefixedHexToBytes('30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47')
let mcl: Mcl
let ONE: Fp
let ONE2: Fp2
const load = curveOnFirstUse(
  (m) => m.BN_SNARK1,
  (m) => {
    mcl = m
    ONE = new mcl.Fp()
    ONE.setInt(1)
    ONE2 = new mcl.Fp2()
    ONE2.setInt(1, 0)
  },
)

// geth's words for a point it refuses (its BN254 is gnark-crypto's: crypto/bn256/gnark), and for a pairing input that
// is not whole pairs (core/vm/contracts.go).
const NOT_ON_CURVE = 'point is not on curve'
const NOT_IN_SUBGROUP = 'point is not in correct subgroup'
const BAD_PAIRING_SIZE = 'bad elliptic curve pairing size'

/** A G1 point on the curve (G1 has no cofactor: that is its whole check), or why not. */
const readG1 = (input: Uint8Array, offset: number): G1 | string => readCodecG1(mcl, input, offset, 32, P, ONE, NOT_ON_CURVE)
const writeG1 = (point: G1): Uint8Array => writeCodecG1(point, 32)

/** A G2 point, on the twist and in the order-r subgroup (the twist has other points), or why not. */
function readG2(input: Uint8Array, offset: number): G2 | string {
  const point = new mcl.G2()
  if (isZeroRange(input, offset, offset + 128)) return point
  // Each coordinate is checked in the order it is written, imaginary part first, as gnark reads them.
  const xIm = readFp(mcl, input, offset, 32, P)
  if (typeof xIm === 'string') return xIm
  const xRe = readFp(mcl, input, offset + 32, 32, P)
  if (typeof xRe === 'string') return xRe
  const yIm = readFp(mcl, input, offset + 64, 32, P)
  if (typeof yIm === 'string') return yIm
  const yRe = readFp(mcl, input, offset + 96, 32, P)
  if (typeof yRe === 'string') return yRe
  const x = new mcl.Fp2()
  x.set_a(xRe)
  x.set_b(xIm)
  const y = new mcl.Fp2()
  y.set_a(yRe)
  y.set_b(yIm)
  point.setX(x)
  point.setY(y)
  point.setZ(ONE2)
  if (!point.isValid()) return NOT_ON_CURVE
  return point.isValidOrder() ? point : NOT_IN_SUBGROUP
}

/** 0x06: the sum of two G1 points; the input is read as 128 bytes (zeros past its end, the rest ignored). */
export function bn254Add(input: Uint8Array, gasLimit: number, fork: Fork = Fork.osaka): PrecompileResult {
  const gas = fork >= Fork.istanbul ? BN254_ADD_GAS : BN254_ADD_GAS_BYZANTIUM
  if (gasLimit < gas) return outOfGas(gasLimit)
  load()
  const data = padRight(input, 128)
  const a = readG1(data, 0)
  if (typeof a === 'string') return failure(gasLimit, a)
  const b = readG1(data, 64)
  if (typeof b === 'string') return failure(gasLimit, b)
  return success(gas, writeG1(mcl.add(a, b)))
}

/** 0x07: a G1 point times a 256-bit scalar (any value: G1's order is prime, so it is taken mod r); 96 bytes read. */
export function bn254Mul(input: Uint8Array, gasLimit: number, fork: Fork = Fork.osaka): PrecompileResult {
  const gas = fork >= Fork.istanbul ? BN254_MUL_GAS : BN254_MUL_GAS_BYZANTIUM
  if (gasLimit < gas) return outOfGas(gasLimit)
  load()
  const data = padRight(input, 96)
  const point = readG1(data, 0)
  if (typeof point === 'string') return failure(gasLimit, point)
  const scalar = new mcl.Fr()
  scalar.setBigEndianMod(data.subarray(64, 96))
  return success(gas, writeG1(mcl.mul(point, scalar)))
}

/** The pairing's price for an input of `length` bytes (the latest prices when no fork is given). */
export function bn254PairingGas(length: number, fork: Fork = Fork.osaka): number {
  const pairs = Math.floor(length / 192)
  return fork >= Fork.istanbul
    ? BN254_PAIRING_BASE_GAS + BN254_PAIRING_PER_PAIR_GAS * pairs
    : BN254_PAIRING_BASE_GAS_BYZANTIUM + BN254_PAIRING_PER_PAIR_GAS_BYZANTIUM * pairs
}

/** 0x08: whether the product of the pairings of 192-byte (G1, G2) pairs is one; the empty product is. */
export function bn254Pairing(input: Uint8Array, gasLimit: number, fork: Fork = Fork.osaka): PrecompileResult {
  const gas = bn254PairingGas(input.length, fork)
  if (gasLimit < gas) return outOfGas(gasLimit)
  if (input.length % 192 !== 0) return failure(gasLimit, BAD_PAIRING_SIZE)
  load()
  let product: ReturnType<Mcl['millerLoop']> | undefined
  for (let offset = 0; offset < input.length; offset += 192) {
    const g1 = readG1(input, offset)
    if (typeof g1 === 'string') return failure(gasLimit, g1)
    const g2 = readG2(input, offset + 64)
    if (typeof g2 === 'string') return failure(gasLimit, g2)
    if (g1.isZero() || g2.isZero()) continue // e(O, Q) = e(P, O) = 1; every point is checked all the same
    const loop = mcl.millerLoop(g1, g2)
    product = product === undefined ? loop : mcl.mul(product, loop)
  }
  const output = new Uint8Array(32)
  if (product === undefined || mcl.finalExp(product).isOne()) output[31] = 1
  return success(gas, output)
}
