import { unprefixedHexToBytes } from '../../util/hex.js'
import { isZeroRange, lessThan } from './bytes.js'
import { curveOnFirstUse, type Fp, type Fp2, type Fr, type G1, type G2, type Mcl } from './mcl.js'
import { NON_CANONICAL, readFp, readG1 as readCodecG1, writeFp, writeG1 as writeCodecG1 } from './mclCodec.js'
import { failure, outOfGas, success } from './result.js'
import type { PrecompileResult } from './types.js'

// EIP-2537 (Prague): BLS12-381 at 0x0b-0x11. A field element is 64 bytes, 16 zeros then 48 big-endian below p; a point
// is x then y, an Fp2 element c0 then c1; all zeros is the point at infinity. Addition takes any point on the curve;
// MSM and pairing also require the order-q subgroup. A refusal says why in geth's words, in geth's order: the gas,
// the input's length, then each point's coordinates in turn (padding, then range), its curve, and for MSM and pairing
// its subgroup (a pairing decodes both points of a pair before checking either's subgroup).

export const G1ADD_GAS = 375
export const G2ADD_GAS = 600
export const G1_MUL_GAS = 12000
export const G2_MUL_GAS = 22500
export const PAIRING_BASE_GAS = 37700
export const PAIRING_PER_PAIR_GAS = 32600
export const MAP_FP_TO_G1_GAS = 5500
export const MAP_FP2_TO_G2_GAS = 23800

const G1_LENGTH = 128
const G2_LENGTH = 256
const G1_MSM_PAIR = G1_LENGTH + 32
const G2_MSM_PAIR = G2_LENGTH + 32
const PAIRING_PAIR = G1_LENGTH + G2_LENGTH

// The MSM discounts (per mille) for k = 1..128 pairs; k > 128 takes the last.
// biome-ignore format: the EIP's table, 16 to a row
const G1_DISCOUNT = Uint16Array.from([
  1000, 949, 848, 797, 764, 750, 738, 728, 719, 712, 705, 698, 692, 687, 682, 677,
  673, 669, 665, 661, 658, 654, 651, 648, 645, 642, 640, 637, 635, 632, 630, 627,
  625, 623, 621, 619, 617, 615, 613, 611, 609, 608, 606, 604, 603, 601, 599, 598,
  596, 595, 593, 592, 591, 589, 588, 586, 585, 584, 582, 581, 580, 579, 577, 576,
  575, 574, 573, 572, 570, 569, 568, 567, 566, 565, 564, 563, 562, 561, 560, 559,
  558, 557, 556, 555, 554, 553, 552, 551, 550, 549, 548, 547, 547, 546, 545, 544,
  543, 542, 541, 540, 540, 539, 538, 537, 536, 536, 535, 534, 533, 532, 532, 531,
  530, 529, 528, 528, 527, 526, 525, 525, 524, 523, 522, 522, 521, 520, 520, 519,
])
// biome-ignore format: the EIP's table, 16 to a row
const G2_DISCOUNT = Uint16Array.from([
  1000, 1000, 923, 884, 855, 832, 812, 796, 782, 770, 759, 749, 740, 732, 724, 717,
  711, 704, 699, 693, 688, 683, 679, 674, 670, 666, 663, 659, 655, 652, 649, 646,
  643, 640, 637, 634, 632, 629, 627, 624, 622, 620, 618, 615, 613, 611, 609, 607,
  606, 604, 602, 600, 598, 597, 595, 593, 592, 590, 589, 587, 586, 584, 583, 582,
  580, 579, 578, 576, 575, 574, 573, 571, 570, 569, 568, 567, 566, 565, 563, 562,
  561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 552, 551, 550, 549, 548, 547,
  546, 545, 545, 544, 543, 542, 541, 541, 540, 539, 538, 537, 537, 536, 535, 535,
  534, 533, 532, 532, 531, 530, 530, 529, 528, 528, 527, 526, 526, 525, 524, 524,
])

/**
 * mcl's multi-scalar multiplication takes its operands on a 1 MiB WASM stack: larger MSMs run in chunks of this many
 * pairs, summed. Pippenger gains little past it, as the discount table (flat from 128) says.
 */
const MSM_CHUNK = 128

const P = unprefixedHexToBytes('1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab')
let mcl: Mcl
let ONE: Fp
let ONE2: Fp2
let FOUR: Fp
const load = curveOnFirstUse(
  (m) => m.BLS12_381,
  (m) => {
    mcl = m
    mcl.setMapToMode(mcl.IRTF) // the hash-to-curve draft's SSWU map and cofactor clearing, as EIP-2537 specifies
    ONE = new mcl.Fp()
    ONE.setInt(1)
    ONE2 = new mcl.Fp2()
    ONE2.setInt(1, 0)
    FOUR = new mcl.Fp()
    FOUR.setInt(4)
  },
)

const INVALID_LENGTH = 'invalid input length'
const NOT_ON_CURVE = 'invalid point: not on curve'
const G1_SUBGROUP = 'g1 point is not on correct subgroup'
const G2_SUBGROUP = 'g2 point is not on correct subgroup'

function readFp2(input: Uint8Array, offset: number): Fp2 | string {
  const c0 = readFp(mcl, input, offset, 64, P)
  if (typeof c0 === 'string') return c0
  const c1 = readFp(mcl, input, offset + 64, 64, P)
  if (typeof c1 === 'string') return c1
  const element = new mcl.Fp2()
  element.set_a(c0)
  element.set_b(c1)
  return element
}

/** A point on G1's curve, or why not (its subgroup is checked apart). */
const readG1 = (input: Uint8Array, offset: number): G1 | string => readCodecG1(mcl, input, offset, 64, P, ONE, NOT_ON_CURVE)

/** A point on G2's curve, or why not (its subgroup is checked apart). */
function readG2(input: Uint8Array, offset: number): G2 | string {
  const point = new mcl.G2()
  if (isZeroRange(input, offset, offset + G2_LENGTH)) return point
  const x = readFp2(input, offset)
  if (typeof x === 'string') return x
  const y = readFp2(input, offset + 128)
  if (typeof y === 'string') return y
  point.setX(x)
  point.setY(y)
  point.setZ(ONE2)
  return point.isValid() ? point : NOT_ON_CURVE
}

/** Whether a point on the curve is in the order-q subgroup (the point at infinity is in every subgroup). */
const inSubgroup = (point: G1 | G2): boolean => point.isZero() || point.isValidOrder()

const writeG1 = (point: G1): Uint8Array => writeCodecG1(point, 64)

function writeG2(point: G2): Uint8Array {
  const out = new Uint8Array(G2_LENGTH)
  if (point.isZero()) return out
  point.normalize()
  const x = point.getX()
  const y = point.getY()
  writeFp(x.get_a(), out, 0, 64)
  writeFp(x.get_b(), out, 64, 64)
  writeFp(y.get_a(), out, 128, 64)
  writeFp(y.get_b(), out, 192, 64)
  return out
}

function scalarAt(input: Uint8Array, offset: number): Fr {
  // Any 256-bit value: the points are in the order-q subgroup, so the scalar counts mod q.
  const scalar = new mcl.Fr()
  scalar.setBigEndianMod(input.subarray(offset, offset + 32))
  return scalar
}

/** EIP-2537's MSM price for an input of `length` bytes: k = floor(length / pair) pairs at a discount by k. */
export function msmGas(length: number, pairLength: number, mulGas: number, discounts: Uint16Array): number {
  const k = Math.floor(length / pairLength)
  if (k === 0) return 0
  return Math.floor((k * mulGas * discounts[Math.min(k, discounts.length) - 1]!) / 1000)
}

export const g1MsmGas = (length: number): number => msmGas(length, G1_MSM_PAIR, G1_MUL_GAS, G1_DISCOUNT)
export const g2MsmGas = (length: number): number => msmGas(length, G2_MSM_PAIR, G2_MUL_GAS, G2_DISCOUNT)

/** What G1 and G2 differ in, for the precompiles that treat both alike: addition and MSM. */
interface Group<P> {
  length: number
  /** An MSM pair's bytes: a point and a 32-byte scalar. */
  msmPair: number
  addGas: number
  msmGas(length: number): number
  read(input: Uint8Array, offset: number): P | string
  /** geth's words for a point of the group outside its subgroup. */
  subgroupError: string
  write(point: P): Uint8Array
  /** The point at infinity. */
  zero(): P
  add(a: P, b: P): P
  mulVec(points: P[], scalars: Fr[]): P
}

const G1_GROUP: Group<G1> = {
  length: G1_LENGTH,
  msmPair: G1_MSM_PAIR,
  addGas: G1ADD_GAS,
  msmGas: g1MsmGas,
  read: readG1,
  subgroupError: G1_SUBGROUP,
  write: writeG1,
  zero: () => new mcl.G1(),
  add: (a, b) => mcl.add(a, b),
  mulVec: (points, scalars) => mcl.mulVec(points, scalars),
}

const G2_GROUP: Group<G2> = {
  length: G2_LENGTH,
  msmPair: G2_MSM_PAIR,
  addGas: G2ADD_GAS,
  msmGas: g2MsmGas,
  read: readG2,
  subgroupError: G2_SUBGROUP,
  write: writeG2,
  zero: () => new mcl.G2(),
  add: (a, b) => mcl.add(a, b),
  mulVec: (points, scalars) => mcl.mulVec(points, scalars),
}

/** The sum of two points of the group (any point on the curve). */
function addPoints<P>(g: Group<P>, input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < g.addGas) return outOfGas(gasLimit)
  if (input.length !== 2 * g.length) return failure(gasLimit, INVALID_LENGTH)
  load()
  const a = g.read(input, 0)
  if (typeof a === 'string') return failure(gasLimit, a)
  const b = g.read(input, g.length)
  if (typeof b === 'string') return failure(gasLimit, b)
  return success(g.addGas, g.write(g.add(a, b)))
}

/** The sum of k points of the group's subgroup times their scalars (a point then a 32-byte scalar each, k ≥ 1). */
function msm<P extends G1 | G2>(g: Group<P>, input: Uint8Array, gasLimit: number): PrecompileResult {
  const pair = g.msmPair
  const gas = g.msmGas(input.length)
  if (gasLimit < gas) return outOfGas(gasLimit)
  if (input.length === 0 || input.length % pair !== 0) return failure(gasLimit, INVALID_LENGTH)
  load()
  let sum = g.zero()
  const points: P[] = []
  const scalars: Fr[] = []
  for (let offset = 0; offset < input.length; offset += pair) {
    const point = g.read(input, offset)
    if (typeof point === 'string') return failure(gasLimit, point)
    if (!inSubgroup(point)) return failure(gasLimit, g.subgroupError)
    points.push(point)
    scalars.push(scalarAt(input, offset + g.length))
    if (points.length === MSM_CHUNK) {
      sum = g.add(sum, g.mulVec(points, scalars))
      points.length = 0
      scalars.length = 0
    }
  }
  if (points.length > 0) sum = g.add(sum, g.mulVec(points, scalars))
  return success(gas, g.write(sum))
}

/** 0x0b: the sum of two G1 points (256 bytes in). */
export const blsG1Add = (input: Uint8Array, gasLimit: number): PrecompileResult => addPoints(G1_GROUP, input, gasLimit)
/** 0x0c: the sum of k G1 points times their scalars (160 bytes a pair). */
export const blsG1Msm = (input: Uint8Array, gasLimit: number): PrecompileResult => msm(G1_GROUP, input, gasLimit)
/** 0x0d: the sum of two G2 points (512 bytes in). */
export const blsG2Add = (input: Uint8Array, gasLimit: number): PrecompileResult => addPoints(G2_GROUP, input, gasLimit)
/** 0x0e: the sum of k G2 points times their scalars (288 bytes a pair). */
export const blsG2Msm = (input: Uint8Array, gasLimit: number): PrecompileResult => msm(G2_GROUP, input, gasLimit)

export function blsPairingGas(length: number): number {
  return PAIRING_BASE_GAS + PAIRING_PER_PAIR_GAS * Math.floor(length / PAIRING_PAIR)
}

/** 0x0f: whether the product of the pairings of k (G1, G2) pairs is one (384 bytes a pair, k ≥ 1). */
export function blsPairingCheck(input: Uint8Array, gasLimit: number): PrecompileResult {
  const gas = blsPairingGas(input.length)
  if (gasLimit < gas) return outOfGas(gasLimit)
  if (input.length === 0 || input.length % PAIRING_PAIR !== 0) return failure(gasLimit, INVALID_LENGTH)
  load()
  let product: ReturnType<Mcl['millerLoop']> | undefined
  for (let offset = 0; offset < input.length; offset += PAIRING_PAIR) {
    const g1 = readG1(input, offset)
    if (typeof g1 === 'string') return failure(gasLimit, g1)
    const g2 = readG2(input, offset + G1_LENGTH)
    if (typeof g2 === 'string') return failure(gasLimit, g2)
    if (!inSubgroup(g1)) return failure(gasLimit, G1_SUBGROUP)
    if (!inSubgroup(g2)) return failure(gasLimit, G2_SUBGROUP)
    if (g1.isZero() || g2.isZero()) continue // a factor of one, its points checked all the same
    const loop = mcl.millerLoop(g1, g2)
    product = product === undefined ? loop : mcl.mul(product, loop)
  }
  const output = new Uint8Array(32)
  if (product === undefined || mcl.finalExp(product).isOne()) output[31] = 1
  return success(gas, output)
}

/** 0x10: a field element mapped to G1 (64 bytes in). */
export function blsMapFpToG1(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < MAP_FP_TO_G1_GAS) return outOfGas(gasLimit)
  if (input.length !== 64) return failure(gasLimit, INVALID_LENGTH)
  load()
  const element = readFp(mcl, input, 0, 64, P)
  if (typeof element === 'string') return failure(gasLimit, element)
  return success(MAP_FP_TO_G1_GAS, writeG1(element.mapToG1()))
}

/** 0x11: an Fp2 element mapped to G2 (128 bytes in). */
export function blsMapFp2ToG2(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < MAP_FP2_TO_G2_GAS) return outOfGas(gasLimit)
  if (input.length !== 128) return failure(gasLimit, INVALID_LENGTH)
  load()
  const element = readFp2(input, 0)
  if (typeof element === 'string') return failure(gasLimit, element)
  return success(MAP_FP2_TO_G2_GAS, writeG2(element.mapToG2()))
}

// --- compressed G1 points (EIP-4844's commitments and proofs)

const FLAGS = 0xe0
const COMPRESSED = 0x80
const COMPRESSED_LARGEST_Y = 0xa0
const COMPRESSED_INFINITY = 0xc0
const UNCOMPRESSED = 0x00
const UNCOMPRESSED_INFINITY = 0x40

/**
 * Why a 48-byte compressed G1 point (the zcash encoding: three flag bits, then x) is not a point of the subgroup, in
 * the words of gnark-crypto's SetBytes, which geth's KZG (go-eth-kzg) decodes with; undefined when it is one. The
 * flags of the 96-byte uncompressed form ask for more bytes than there are; the sign of y does not change whether the
 * point is on the curve or in the subgroup, so only x is decoded.
 */
export function compressedG1Problem(point: Uint8Array): string | undefined {
  const flags = point[0]! & FLAGS
  if (flags === UNCOMPRESSED || flags === UNCOMPRESSED_INFINITY) return 'short buffer'
  if (flags === COMPRESSED_INFINITY) return (point[0]! & ~FLAGS) === 0 && isZeroRange(point, 1, 48) ? undefined : 'invalid infinity point encoding'
  if (flags !== COMPRESSED && flags !== COMPRESSED_LARGEST_Y) return 'invalid point encoding'
  const bytes = point.slice(0, 48)
  bytes[0] = bytes[0]! & ~FLAGS
  if (!lessThan(bytes, 0, P)) return NON_CANONICAL
  load()
  const x = new mcl.Fp()
  x.setBigEndianMod(bytes)
  const [found, y] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), FOUR))
  if (!found) return "invalid compressed coordinate: square root doesn't exist"
  const g1 = new mcl.G1()
  g1.setX(x)
  g1.setY(y)
  g1.setZ(ONE)
  return g1.isValidOrder() ? undefined : 'invalid point: subgroup check failed'
}
