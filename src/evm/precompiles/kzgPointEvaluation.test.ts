import { bls12_381 } from '@noble/curves/bls12-381.js'
import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { sha256 } from '../../crypto/sha256.js'
import { pointOutsideSubgroup } from '../../testing/curvePoints.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { hexToBytes } from '../../util/hex.js'
import { kzgPointEvaluation, POINT_EVALUATION_GAS } from './kzgPointEvaluation.js'

// go-ethereum's pointEvaluation1: versioned hash, z, y, commitment, proof of a blob.
const VALID =
  '01e798154708fe7789429634053cbf9f99b619f9f084048927333fce637f549b564c0a11a0f704f4fc3e8acfe0f8245f0ad1347b378fbf96e206da11a5d3630624d25032e67a7e6a4910df5834b8fe70e6bcfeeac0352434196bdf4b2485d5a18f59a8d2a1a625a17f3fea0fe5eb8c896db3764f3185481bc22f91b4aaffcca25f26936857bc3a7c2539ea8ec3a952b7873033e038326e87ed3e1276fd140253fa08e9fc25fb2d9a98527fc22a2c9612fbeafdad446cbc7bcdbdcd780af2c16a'
const valid = (): Uint8Array => hexToBytes(`0x${VALID}`)
const edited = (at: number, value: number): Uint8Array => {
  const input = valid()
  input[at] = value
  return input
}

describe('KZG point evaluation (0x0a)', () => {
  it('returns FIELD_ELEMENTS_PER_BLOB and BLS_MODULUS for a valid proof', () => {
    expect(shown(kzgPointEvaluation(valid(), 50000))).toEqual({
      ok: true,
      gasUsed: 50000,
      output: `${'1000'.padStart(64, '0')}73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001`,
    })
  })
  it('fails on a wrong version or hash, a wrong y, a bad proof, a bad length, or too little gas, in geth’s words', () => {
    const fail = (error: string) => ({ ok: false, gasUsed: 60000, output: new Uint8Array(), error })
    const verifying = (why: string) => fail(`error verifying kzg proof: ${why}`)
    expect(kzgPointEvaluation(edited(0, 2), 60000)).toEqual(fail('mismatched versioned hash'))
    expect(kzgPointEvaluation(edited(5, 0), 60000)).toEqual(fail('mismatched versioned hash'))
    expect(kzgPointEvaluation(edited(95, 0), 60000)).toEqual(verifying("can't verify opening proof"))
    // The proof's x changed: no point of the curve has it (its y² has no root).
    expect(kzgPointEvaluation(edited(191, 0), 60000)).toEqual(verifying("invalid compressed coordinate: square root doesn't exist"))
    const nonCanonical = verifying('scalar is not canonical when interpreted as a big integer in big-endian')
    expect(kzgPointEvaluation(edited(32, 0xff), 60000)).toEqual(nonCanonical) // z above the field modulus
    expect(kzgPointEvaluation(edited(64, 0xff), 60000)).toEqual(nonCanonical) // y
    expect(kzgPointEvaluation(valid().subarray(0, 191), 60000)).toEqual(fail('invalid input length'))
    expect(kzgPointEvaluation(valid(), 49999)).toEqual({ ok: false, gasUsed: 49999, output: new Uint8Array(), error: 'out of gas' })
  })
  it('names why a commitment or proof does not decode, as gnark-crypto does for geth', () => {
    const { Fp } = bls12_381.fields
    const compressed = (x: bigint, flags = 0x80): Uint8Array => {
      const bytes = hexToBytes(`0x${x.toString(16).padStart(96, '0')}`)
      bytes[0] = bytes[0]! | flags
      return bytes
    }
    const withCommitment = (commitment: Uint8Array): Uint8Array => {
      const input = valid()
      input.set(commitment, 96)
      const hash = sha256(commitment)
      input.set(hash, 0)
      input[0] = 1
      return input
    }
    const why = (commitment: Uint8Array) => kzgPointEvaluation(withCommitment(commitment), 60000).error
    const prefix = 'error verifying kzg proof: '
    expect(why(compressed(1n, 0x00))).toBe(`${prefix}short buffer`) // the flags of the 96-byte form
    expect(why(compressed(1n, 0x40))).toBe(`${prefix}short buffer`)
    expect(why(compressed(1n, 0xe0))).toBe(`${prefix}invalid point encoding`)
    expect(why(compressed(1n, 0xc0))).toBe(`${prefix}invalid infinity point encoding`)
    expect(why(compressed(Fp.ORDER))).toBe(`${prefix}invalid fp.Element encoding`)
    // x³ + 4 without a square root; a point of the curve outside the subgroup (the cofactor is large).
    let noRoot = 1n
    while (Fp.pow(Fp.add(Fp.mul(Fp.sqr(noRoot), noRoot), 4n), (Fp.ORDER - 1n) / 2n) === 1n) noRoot++
    expect(why(compressed(noRoot))).toBe(`${prefix}invalid compressed coordinate: square root doesn't exist`)
    const outside = pointOutsideSubgroup(
      Fp,
      4n,
      (i) => i,
      (x, y) => bls12_381.G1.Point.fromAffine({ x, y }).isTorsionFree(),
    )
    expect(why(compressed(outside.x))).toBe(`${prefix}invalid point: subgroup check failed`)
    // The point at infinity decodes (the proof then fails), as does the generator.
    expect(why(compressed(0n, 0xc0))).toBe(`${prefix}can't verify opening proof`)
    expect(why(bls12_381.G1.Point.BASE.toBytes(true))).toBe(`${prefix}can't verify opening proof`)
  })
  it('agrees with EthereumJS', async () => {
    const inputs = [
      valid(),
      edited(0, 2),
      edited(5, 0),
      edited(95, 0),
      edited(150, 0),
      edited(32, 0xff),
      edited(64, 0xff),
      valid().subarray(1),
      new Uint8Array(),
    ]
    expect(await disagreements(0x0an, Fork.cancun, kzgPointEvaluation, inputs, () => POINT_EVALUATION_GAS)).toEqual([])
  })
})
