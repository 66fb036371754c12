import { unprefixedHexToBytes } from '../../util/hex.js'
import { isZeroRange, lessThan } from './bytes.js'
import { curveOnFirstUse, type Fp, type G1, type Mcl } from './mcl.js'
import { readFp } from './mclCodec.js'
import { EMPTY, outOfGas, success } from './result.js'
import type { PrecompileResult } from './types.js'

// EIP-7951 (Osaka): ECDSA verification over secp256r1 (P-256) at 0x100. Input: the hash h, r, s, qx, qy, each 32
// bytes. A valid signature returns the word 1; anything else (bad length, r or s outside (0, n), a key that is not a
// point of the curve) returns nothing but is no failure: the gas is charged all the same. Only too little gas fails.

export const P256VERIFY_GAS = 6900

const P = unprefixedHexToBytes('ffffffff00000001000000000000000000000000ffffffffffffffffffffffff')
const N = unprefixedHexToBytes('ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551')
let mcl: Mcl
let ONE: Fp
let G: G1
const load = curveOnFirstUse(
  (m) => m.NIST_P256,
  (m) => {
    mcl = m
    ONE = new mcl.Fp()
    ONE.setInt(1)
    G = new mcl.G1()
    G.setStr(
      '1 6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296 4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5',
      16,
    )
  },
)

const notVerified = (): PrecompileResult => success(P256VERIFY_GAS, EMPTY)

function scalarInRange(input: Uint8Array, offset: number): boolean {
  return !isZeroRange(input, offset, offset + 32) && lessThan(input, offset, N)
}

export function p256Verify(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < P256VERIFY_GAS) return outOfGas(gasLimit)
  if (input.length !== 160 || !scalarInRange(input, 32) || !scalarInRange(input, 64)) return notVerified()
  load()
  const qx = readFp(mcl, input, 96, 32, P)
  const qy = readFp(mcl, input, 128, 32, P)
  // (0, 0) is not on the curve either (b ≠ 0); it is named as infinity's encoding, refused as a key.
  if (typeof qx === 'string' || typeof qy === 'string') return notVerified()
  const key = new mcl.G1()
  key.setX(qx)
  key.setY(qy)
  key.setZ(ONE)
  if (!key.isValid()) return notVerified()
  // mcl's Fr is the field of the group order n here: R' = (h / s)·G + (r / s)·Q, accepted when R'.x ≡ r (mod n).
  const h = new mcl.Fr()
  h.setBigEndianMod(input.subarray(0, 32))
  const r = new mcl.Fr()
  r.setBigEndianMod(input.subarray(32, 64))
  const s = new mcl.Fr()
  s.setBigEndianMod(input.subarray(64, 96))
  const sInverse = mcl.inv(s)
  const point = mcl.mulVec([G, key], [mcl.mul(h, sInverse), mcl.mul(r, sInverse)])
  if (point.isZero()) return notVerified()
  point.normalize()
  const x = new mcl.Fr()
  x.setLittleEndianMod(point.getX().serialize())
  if (!x.isEqual(r)) return notVerified()
  const output = new Uint8Array(32)
  output[31] = 1
  return success(P256VERIFY_GAS, output)
}
