import { bls12_381 } from '@noble/curves/bls12-381.js'
import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { pointOutsideSubgroup } from '../../testing/curvePoints.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { hexToBytes } from '../../util/hex.js'
import {
  blsG1Add,
  blsG1Msm,
  blsG2Add,
  blsG2Msm,
  blsMapFp2ToG2,
  blsMapFpToG1,
  blsPairingCheck,
  blsPairingGas,
  g1MsmGas,
  g2MsmGas,
} from './bls12381.js'
import type { Precompile } from './types.js'

// Points are made with @noble/curves, an implementation independent of mcl, and encoded as EIP-2537 says.
const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
const fp = (n: bigint): string => n.toString(16).padStart(128, '0')
const scalar = (n: bigint): string => n.toString(16).padStart(64, '0')
const { Fp, Fp2 } = bls12_381.fields
const P = Fp.ORDER
const Q = bls12_381.fields.Fr.ORDER
type G1Point = ReturnType<typeof bls12_381.G1.Point.BASE.toAffine>
type G2Point = ReturnType<typeof bls12_381.G2.Point.BASE.toAffine>
const g1 = (p: G1Point): string => fp(p.x) + fp(p.y)
const g2 = (p: G2Point): string => fp(p.x.c0) + fp(p.x.c1) + fp(p.y.c0) + fp(p.y.c1)
const G1 = (k: bigint): string => g1(bls12_381.G1.Point.BASE.multiply(k).toAffine())
const G2 = (k: bigint): string => g2(bls12_381.G2.Point.BASE.multiply(k).toAffine())
const minusG1 = (k: bigint): string => g1(bls12_381.G1.Point.BASE.multiply(k).negate().toAffine())
const INF1 = '00'.repeat(128)
const INF2 = '00'.repeat(256)

/** Points on the curves outside the order-q subgroup: the cofactors are large, so the first x with a y will do. */
function g1OutsideSubgroup(): string {
  const { x, y } = pointOutsideSubgroup(
    Fp,
    4n,
    (i) => i,
    (x, y) => bls12_381.G1.Point.fromAffine({ x, y }).isTorsionFree(),
  )
  return fp(x) + fp(y)
}
function g2OutsideSubgroup(): string {
  const { x, y } = pointOutsideSubgroup<ReturnType<typeof Fp2.fromBigTuple>>(
    Fp2,
    Fp2.fromBigTuple([4n, 4n]),
    (i) => Fp2.fromBigTuple([i, 1n]),
    (x, y) => bls12_381.G2.Point.fromAffine({ x, y }).isTorsionFree(),
  )
  return fp(x.c0) + fp(x.c1) + fp(y.c0) + fp(y.c1)
}
const OFF1 = fp(1n) + fp(1n)
const OFF2 = fp(1n) + fp(1n) + fp(1n) + fp(1n)
const OUT1 = g1OutsideSubgroup()
const OUT2 = g2OutsideSubgroup()

describe('BLS12-381 precompiles (0x0b-0x11): known answers', () => {
  it('adds in G1 and G2, points outside the subgroup included', () => {
    expect(shown(blsG1Add(hex(G1(2n) + G1(3n)), 375))).toEqual({ ok: true, gasUsed: 375, output: G1(5n) })
    expect(shown(blsG1Add(hex(INF1 + G1(3n)), 375)).output).toBe(G1(3n))
    expect(shown(blsG1Add(hex(INF1 + INF1), 375)).output).toBe(INF1)
    expect(shown(blsG1Add(hex(G1(3n) + minusG1(3n)), 375)).output).toBe(INF1)
    expect(blsG1Add(hex(OUT1 + G1(3n)), 375).ok).toBe(true)
    expect(shown(blsG2Add(hex(G2(2n) + G2(3n)), 600))).toEqual({ ok: true, gasUsed: 600, output: G2(5n) })
    expect(blsG2Add(hex(OUT2 + INF2), 600)).toEqual({ ok: true, gasUsed: 600, output: hex(OUT2) })
  })
  it('multiplies and sums (MSM), scalars at or above q included, with the discounted price', () => {
    expect(shown(blsG1Msm(hex(G1(1n) + scalar(7n)), 12000))).toEqual({ ok: true, gasUsed: 12000, output: G1(7n) })
    const three = G1(2n) + scalar(3n) + G1(5n) + scalar(Q + 1n) + G1(1n) + scalar(2n ** 256n - 1n)
    const expected = g1(bls12_381.G1.Point.BASE.multiply((6n + 5n + ((2n ** 256n - 1n) % Q)) % Q).toAffine())
    expect(shown(blsG1Msm(hex(three), 30528))).toEqual({ ok: true, gasUsed: 30528, output: expected })
    expect(shown(blsG2Msm(hex(G2(3n) + scalar(5n) + G2(1n) + scalar(Q)), 45000))).toEqual({ ok: true, gasUsed: 45000, output: G2(15n) })
    expect([1, 2, 3, 128, 129, 1000].map((k) => g1MsmGas(160 * k))).toEqual([12000, 22776, 30528, 797184, 803412, 6228000])
    expect([1, 2, 3, 128, 129, 1000].map((k) => g2MsmGas(288 * k))).toEqual([22500, 45000, 62302, 1509120, 1520910, 11790000])
  })
  it('sums an MSM larger than one chunk of the WASM stack', () => {
    let input = ''
    let sum = 0n
    for (let i = 1n; i <= 300n; i++) {
      input += G2(i) + scalar(i * 1000n + 7n)
      sum += i * (i * 1000n + 7n)
    }
    expect(shown(blsG2Msm(hex(input), 10_000_000)).output).toBe(G2(sum % Q))
  })
  it('checks pairings', () => {
    const yes = hex(G1(2n) + G2(3n) + minusG1(6n) + G2(1n))
    expect(shown(blsPairingCheck(yes, 102900))).toEqual({ ok: true, gasUsed: 102900, output: scalar(1n) })
    expect(shown(blsPairingCheck(hex(G1(2n) + G2(3n) + minusG1(5n) + G2(1n)), 102900)).output).toBe(scalar(0n))
    expect(shown(blsPairingCheck(hex(INF1 + G2(3n)), 70300)).output).toBe(scalar(1n))
    expect(blsPairingGas(384 * 2)).toBe(102900)
  })
  it("maps field elements to the curves (go-ethereum's matter_fp_to_g1_0 and matter_fp2_to_g2_0)", () => {
    const u0 = '14406e5bfb9209256a3820879a29ac2f62d6aca82324bf3ae2aa7d3c54792043bd8c791fccdb080c1a52dc68b8b69350'
    const u1 = '0e885bb33996e12f07da69073e2c0cc880bc8eff26d2a724299eb12d54f4bcf26f4748bb020e80a7e3794a7b0e47a641'
    const pad = '00'.repeat(16)
    expect(shown(blsMapFpToG1(hex(pad + u0), 5500))).toEqual({
      ok: true,
      gasUsed: 5500,
      output: `${pad}0d7721bcdb7ce1047557776eb2659a444166dc6dd55c7ca6e240e21ae9aa18f529f04ac31d861b54faf3307692545db7${pad}108286acbdf4384f67659a8abe89e712a504cb3ce1cba07a716869025d60d499a00d1da8cdc92958918c222ea93d87f0`,
    })
    expect(shown(blsMapFp2ToG2(hex(pad + u0 + pad + u1), 23800))).toEqual({
      ok: true,
      gasUsed: 23800,
      output: [
        '0d029393d3a13ff5b26fe52bd8953768946c5510f9441f1136f1e938957882db6adbd7504177ee49281ecccba596f2bf',
        '1993f668fb1ae603aefbb1323000033fcb3b65d8ed3bf09c84c61e27704b745f540299a1872cd697ae45a5afd780f1d6',
        '079cb41060ef7a128d286c9ef8638689a49ca19da8672ea5c47b6ba6dbde193ee835d3b87a76a689966037c07159c10d',
        '17c688ae9a8b59a7069c27f2d58dd2196cb414f4fb89da8510518a1142ab19d158badd1c3bad03408fafb1669903cd6c',
      ]
        .map((c) => pad + c)
        .join(''),
    })
  })
  it('fails on bad encodings, points off the curves, points outside the subgroup where it matters, empty input, in geth’s words', () => {
    const why = (r: { ok: boolean; error?: string }): string | undefined => (r.ok ? undefined : r.error)
    const TOP = 'invalid field element top bytes'
    const RANGE = 'invalid fp.Element encoding'
    const CURVE = 'invalid point: not on curve'
    const LENGTH = 'invalid input length'
    expect(why(blsG1Add(hex(OFF1 + G1(1n)), 375))).toBe(CURVE)
    expect(why(blsG1Add(hex(`01${G1(1n).slice(2)}${G1(1n)}`), 375))).toBe(TOP) // a top byte set
    expect(why(blsG1Add(hex(fp(P) + fp(0n) + G1(1n)), 375))).toBe(RANGE)
    expect(why(blsG1Add(hex(G1(1n) + fp(1n) + fp(P)), 375))).toBe(RANGE) // the second point's y
    expect(why(blsG1Add(hex(G1(1n) + G1(1n)), 374))).toBe('out of gas')
    expect(why(blsG1Add(hex(`${G1(1n) + G1(1n)}00`), 375))).toBe(LENGTH)
    expect(why(blsG2Add(hex(OFF2 + G2(1n)), 600))).toBe(CURVE)
    const topInYC1 = `${fp(1n).repeat(3)}01${fp(1n).slice(2)}`
    expect(why(blsG2Add(hex(topInYC1 + G2(1n)), 600))).toBe(TOP) // y's c1
    expect(why(blsG1Msm(hex(OUT1 + scalar(1n)), 12000))).toBe('g1 point is not on correct subgroup')
    expect(why(blsG2Msm(hex(OUT2 + scalar(1n)), 22500))).toBe('g2 point is not on correct subgroup')
    expect(why(blsG1Msm(new Uint8Array(), 12000))).toBe(LENGTH) // no pair: priced at 0, then refused for its length
    expect(why(blsG1Msm(hex(G1(1n) + scalar(1n)), 11999))).toBe('out of gas')
    expect(why(blsPairingCheck(new Uint8Array(), 100000))).toBe(LENGTH)
    expect(why(blsPairingCheck(hex(OUT1 + G2(1n)), 100000))).toBe('g1 point is not on correct subgroup')
    expect(why(blsPairingCheck(hex(G1(1n) + OUT2), 100000))).toBe('g2 point is not on correct subgroup')
    expect(why(blsPairingCheck(hex(INF1 + OUT2), 100000))).toBe('g2 point is not on correct subgroup')
    // A pair's two points are decoded before either's subgroup is checked.
    expect(why(blsPairingCheck(hex(OUT1 + OFF2), 100000))).toBe(CURVE)
    expect(why(blsMapFpToG1(hex(fp(P)), 5500))).toBe(RANGE)
    expect(why(blsMapFpToG1(hex(fp(1n)), 5499))).toBe('out of gas')
    expect(why(blsMapFpToG1(hex(`${fp(1n)}00`), 5500))).toBe(LENGTH)
    expect(why(blsMapFp2ToG2(hex(fp(1n) + fp(P + 1n)), 23800))).toBe(RANGE)
  })
})

describe('BLS12-381 precompiles: the same outputs and gas as EthereumJS on edge inputs', () => {
  const cases: [string, bigint, Precompile, (input: Uint8Array) => number, string[]][] = [
    [
      'G1ADD',
      0x0bn,
      blsG1Add,
      () => 375,
      [G1(2n) + G1(3n), INF1 + INF1, G1(1n) + minusG1(1n), G1(4n) + G1(4n), OUT1 + G1(1n), OFF1 + G1(1n), G1(1n), `${G1(1n)}${G1(1n)}00`, ''],
    ],
    ['G2ADD', 0x0dn, blsG2Add, () => 600, [G2(2n) + G2(3n), INF2 + G2(1n), G2(5n) + G2(5n), OUT2 + G2(1n), OFF2 + G2(1n), G2(1n), '']],
    [
      'G1MSM',
      0x0cn,
      blsG1Msm,
      (input) => g1MsmGas(input.length),
      [
        G1(1n) + scalar(0n),
        G1(1n) + scalar(Q),
        INF1 + scalar(5n),
        G1(3n) + scalar(5n) + G1(7n) + scalar(2n ** 255n),
        Array.from({ length: 20 }, (_, i) => G1(BigInt(i + 1)) + scalar(BigInt(i * i + 3))).join(''),
        OUT1 + scalar(1n),
        OFF1 + scalar(1n),
        `${G1(1n)}${scalar(1n)}00`,
        G1(1n),
        '',
      ],
    ],
    [
      'G2MSM',
      0x0en,
      blsG2Msm,
      (input) => g2MsmGas(input.length),
      [G2(1n) + scalar(3n), INF2 + scalar(1n), G2(2n) + scalar(Q - 1n) + G2(9n) + scalar(4n), OUT2 + scalar(2n), OFF2 + scalar(2n), G2(1n), ''],
    ],
    [
      'PAIRING_CHECK',
      0x0fn,
      blsPairingCheck,
      (input) => blsPairingGas(input.length),
      [
        G1(2n) + G2(3n) + minusG1(6n) + G2(1n),
        G1(2n) + G2(3n) + minusG1(5n) + G2(1n),
        G1(1n) + G2(1n),
        INF1 + INF2,
        INF1 + G2(1n) + G1(1n) + INF2,
        OUT1 + G2(1n),
        G1(1n) + OUT2,
        OFF1 + G2(1n),
        `${G1(1n)}${G2(1n)}00`,
        '',
      ],
    ],
    ['MAP_FP_TO_G1', 0x10n, blsMapFpToG1, () => 5500, [fp(0n), fp(1n), fp(P - 1n), fp(P), fp(123456789n).slice(2), `${fp(5n)}00`, '']],
    [
      'MAP_FP2_TO_G2',
      0x11n,
      blsMapFp2ToG2,
      () => 23800,
      [fp(0n) + fp(0n), fp(1n) + fp(2n), fp(P - 1n) + fp(P - 2n), fp(P) + fp(1n), `01${fp(1n).slice(2)}${fp(1n)}`, fp(1n), ''],
    ],
  ]
  for (const [name, address, ours, need, inputs] of cases) {
    it(name, async () => {
      expect(await disagreements(address, Fork.prague, ours, inputs.map(hex), need)).toEqual([])
    })
  }
})
