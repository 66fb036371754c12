import { bn254 } from '@noble/curves/bn254.js'
import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { hexToBytes } from '../../util/hex.js'
import { pointOutsideSubgroup } from '../../testing/curvePoints.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { bn254Add, bn254Mul, bn254Pairing } from './bn254.js'
import type { Precompile } from './types.js'

const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
const word = (n: bigint): string => n.toString(16).padStart(64, '0')
const P = bn254.fields.Fp.ORDER
type G1Point = ReturnType<typeof bn254.G1.Point.BASE.toAffine>
type G2Point = ReturnType<typeof bn254.G2.Point.BASE.toAffine>
const g1 = (p: G1Point): string => word(p.x) + word(p.y)
const g2 = (p: G2Point): string => word(p.x.c1) + word(p.x.c0) + word(p.y.c1) + word(p.y.c0)
const G1 = (k: bigint): G1Point => bn254.G1.Point.BASE.multiply(k).toAffine()
const G2 = (k: bigint): G2Point => bn254.G2.Point.BASE.multiply(k).toAffine()

/** A point on the twist outside the order-r subgroup: the twist's cofactor is large, so almost any point will do. */
function twistPointOutsideSubgroup(): string {
  const Fp2 = bn254.fields.Fp2
  const { x, y } = pointOutsideSubgroup<ReturnType<typeof Fp2.fromBigTuple>>(
    Fp2,
    Fp2.div(Fp2.fromBigTuple([3n, 0n]), Fp2.fromBigTuple([9n, 1n])),
    (i) => Fp2.fromBigTuple([i, 1n]),
    (x, y) => bn254.G2.Point.fromAffine({ x, y }).isTorsionFree(),
  )
  return word(x.c1) + word(x.c0) + word(y.c1) + word(y.c0)
}

describe('BN254 precompiles: known answers (go-ethereum vectors chfast1, cdetrio11, jeff1, jeff6)', () => {
  it('adds', () => {
    const r = bn254Add(
      hex(
        '18b18acfb4c2c30276db5411368e7185b311dd124691610c5d3b74034e093dc9063c909c4720840cb5134cb9f59fa749755796819658d32efc0d288198f3726607c2b7f58a84bd6145f00c9c2bc0bb1a187f20ff2c92963a88019e7c6a014eed06614e20c147e940f2d70da3f74c9a17df361706a4485c742bd6788478fa17d7',
      ),
      150,
    )
    expect(shown(r)).toEqual({
      ok: true,
      gasUsed: 150,
      output: '2243525c5efd4b9c3d3c45ac0ca3fe4dd85e830a4ce6b65fa1eeaee202839703301d1d33be6da8e509df21cc35964723180eed7532537db9ae5e7d48f195c915',
    })
  })
  it('multiplies, by a scalar above the group order too', () => {
    const r = bn254Mul(
      hex(
        '039730ea8dff1254c0fee9c0ea777d29a9c710b7e616683f194f18c43b43b869073a5ffcc6fc7a28c30723d6e58ce577356982d65b833a5a5c15bf9024b43d98ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff',
      ),
      6000,
    )
    expect(shown(r).output).toBe(
      '00a1a234d08efaa2616607e31eca1980128b00b415c845ff25bba3afcb81dc00242077290ed33906aeb8e42fd98c41bcb9057ba03421af3f2d08cfc441186024',
    )
  })
  const jeff =
    '1c76476f4def4bb94541d57ebba1193381ffa7aa76ada664dd31c16024c43f593034dd2920f673e204fee2811c678745fc819b55d3e9d294e45c9b03a76aef41209dd15ebff5d46c4bd888e51a93cf99a7329636c63514396b4a452003a35bf704bf11ca01483bfa8b34b43561848d28905960114c8ac04049af4b6315a416782bb8324af6cfc93537a2ad1a445cfd0ca2a71acd7ac41fadbf933c2a51be344d120a2a4cf30c1bf9845f20c6fe39e07ea2cce61f0c9bb048165fe5e4de877550111e129f1cf1097710d41c4ac70fcdfa5ba2023c6ff1cbeac322de49d1b6df7c'
  const jeffTail =
    '198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa'
  it('checks pairings, true and false', () => {
    const yes = bn254Pairing(hex(`${jeff}2032c61a830e3c17286de9462bf242fca2883585b93870a73853face6a6bf411${jeffTail}`), 113000)
    expect(shown(yes)).toEqual({ ok: true, gasUsed: 113000, output: word(1n) })
    const no = bn254Pairing(hex(`${jeff}103188585e2364128fe25c70558f1560f4f9350baf3959e603cc91486e110936${jeffTail}`), 113000)
    expect(shown(no)).toEqual({ ok: true, gasUsed: 113000, output: word(0n) })
  })
  it('is true for the empty product and fails on a G2 point outside the subgroup', () => {
    expect(shown(bn254Pairing(new Uint8Array(), 45000))).toEqual({ ok: true, gasUsed: 45000, output: word(1n) })
    expect(bn254Pairing(hex(g1(G1(3n)) + twistPointOutsideSubgroup()), 100000)).toEqual({
      ok: false,
      gasUsed: 100000,
      output: new Uint8Array(),
      error: 'point is not in correct subgroup',
    })
  })
})

describe('BN254 precompiles: the same outputs and gas as EthereumJS on edge inputs', () => {
  const a = G1(7n)
  const b = G1(11n)
  const offCurve = word(1n) + word(3n)
  const xTooBig = word(P + 1n) + word(2n)
  const cases: Record<string, [number, string[]]> = {
    add: [
      0x06,
      [
        '',
        '00',
        g1(a),
        g1(a) + g1(b),
        g1(a) + g1(b) + 'ff'.repeat(40),
        `${g1(a)}${g1(b).slice(0, 70)}`,
        g1(a) + g1(bn254.G1.Point.BASE.multiply(7n).negate().toAffine()),
        g1(a) + g1(a),
        g1(a) + offCurve,
        xTooBig + g1(a),
        word(0n) + word(P) + g1(a),
        '00'.repeat(128),
      ],
    ],
    mul: [
      0x07,
      [
        '',
        g1(a),
        g1(a) + word(0n),
        g1(a) + word(1n),
        g1(a) + word(2n ** 256n - 1n),
        g1(a) + word(bn254.fields.Fr.ORDER),
        `${g1(a)}1234`,
        `${g1(a)}${word(5n)}ffff`,
        '00'.repeat(64) + word(9n),
        offCurve + word(2n),
        xTooBig + word(2n),
      ],
    ],
    pairing: [
      0x08,
      [
        '',
        '00',
        g1(a) + g2(G2(5n)),
        g1(a) + g2(G2(5n)) + g1(bn254.G1.Point.BASE.multiply(7n).negate().toAffine()) + g2(G2(5n)),
        g1(G1(6n)) + g2(G2(5n)) + g1(bn254.G1.Point.BASE.multiply(30n).negate().toAffine()) + g2(G2(1n)),
        '00'.repeat(64) + g2(G2(5n)),
        g1(a) + '00'.repeat(128),
        '00'.repeat(192),
        g1(a) + twistPointOutsideSubgroup(),
        offCurve + g2(G2(5n)),
        g1(a) + word(P) + g2(G2(5n)).slice(64),
        (g1(a) + g2(G2(5n))).slice(0, 380),
      ],
    ],
  }
  const ours: Record<string, Precompile> = { add: bn254Add, mul: bn254Mul, pairing: bn254Pairing }
  const need: Record<string, (input: Uint8Array) => number> = {
    add: () => 150,
    mul: () => 6000,
    pairing: (input) => 45000 + 34000 * Math.floor(input.length / 192),
  }
  // EIP-196/197's own prices, before EIP-1108.
  const needByzantium: Record<string, (input: Uint8Array) => number> = {
    add: () => 500,
    mul: () => 40000,
    pairing: (input) => 100000 + 80000 * Math.floor(input.length / 192),
  }
  for (const [name, [address, inputs]] of Object.entries(cases)) {
    it(name, async () => {
      expect(await disagreements(BigInt(address), Fork.osaka, ours[name]!, inputs.map(hex), need[name]!)).toEqual([])
    })
    it(`${name} at Byzantium's prices`, async () => {
      expect(await disagreements(BigInt(address), Fork.byzantium, ours[name]!, inputs.map(hex), needByzantium[name]!)).toEqual([])
    })
  }
})

describe('BN254 precompiles: refusals in geth’s words (gnark-crypto’s for points)', () => {
  const a = G1(7n)
  const why = (p: Precompile, input: string, gas = 1_000_000) => p(hex(input), gas, Fork.osaka).error
  it('names too little gas, a coordinate past the modulus, a point off the curve or outside the subgroup, a bad length', () => {
    expect(why(bn254Add, g1(a) + g1(a), 149)).toBe('out of gas')
    expect(why(bn254Mul, g1(a), 5999)).toBe('out of gas')
    expect(why(bn254Pairing, '00'.repeat(191), 44999)).toBe('out of gas') // priced by whole pairs (none), then its length checked
    expect(why(bn254Pairing, '00'.repeat(191))).toBe('bad elliptic curve pairing size')
    expect(why(bn254Add, word(P) + word(2n) + g1(a))).toBe('invalid fp.Element encoding')
    expect(why(bn254Add, g1(a) + word(1n) + word(P))).toBe('invalid fp.Element encoding')
    expect(why(bn254Add, g1(a) + word(1n) + word(3n))).toBe('point is not on curve')
    expect(why(bn254Mul, word(1n) + word(3n) + word(2n))).toBe('point is not on curve')
    // G2: each coordinate in the order written (the imaginary part of x first), then the twist, then the subgroup.
    const g2Good = g2(G2(5n))
    expect(why(bn254Pairing, g1(a) + word(P) + g2Good.slice(64))).toBe('invalid fp.Element encoding')
    expect(why(bn254Pairing, g1(a) + g2Good.slice(0, 192) + word(P))).toBe('invalid fp.Element encoding')
    expect(why(bn254Pairing, g1(a) + word(1n) + word(1n) + word(1n) + word(1n))).toBe('point is not on curve')
    expect(why(bn254Pairing, g1(a) + twistPointOutsideSubgroup())).toBe('point is not in correct subgroup')
    // The first refused point of the first bad pair names the failure.
    expect(why(bn254Pairing, word(1n) + word(3n) + twistPointOutsideSubgroup())).toBe('point is not on curve')
  })
})
