import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { hexToBytes } from '../../util/hex.js'
import { modexp, modexpGas } from './modexp.js'

const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
const word = (n: bigint | number): string => BigInt(n).toString(16).padStart(64, '0')
const bytesOf = (n: bigint, length: number): string => (length === 0 ? '' : n.toString(16).padStart(2 * length, '0'))

/** An input with the given lengths and operands, each operand written at its declared length. */
function call(base: bigint, exp: bigint, mod: bigint, lengths: [number, number, number]): Uint8Array {
  const [b, e, m] = lengths
  return hex(word(b) + word(e) + word(m) + bytesOf(base, b) + bytesOf(exp, e) + bytesOf(mod, m))
}

/** Deterministic filler: a number of `length` bytes, never zero-led. */
function filler(length: number, seed: number): bigint {
  let s = ''
  for (let i = 0; i < length; i++) s += (((i * 131 + seed * 17) % 255) + 1).toString(16).padStart(2, '0')
  return BigInt(`0x${s}`)
}

function reference(base: bigint, exp: bigint, mod: bigint): bigint {
  if (mod === 0n) return 0n
  let r = 1n % mod
  let b = base % mod
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) r = (r * b) % mod
    b = (b * b) % mod
  }
  return r
}

const SECP256K1_P = 2n ** 256n - 2n ** 32n - 977n

describe('modexp (0x05): EIP-198 examples and pricing', () => {
  it('computes 3^(p-1) mod p = 1 and 0^(p-1) mod p = 0', () => {
    const fermat = call(3n, SECP256K1_P - 1n, SECP256K1_P, [1, 32, 32])
    expect(shown(modexp(fermat, 1360, Fork.berlin))).toEqual({ ok: true, gasUsed: 1360, output: word(1) })
    // Osaka (EIP-7883): no division by 3, a complexity of at least 16.
    expect(shown(modexp(fermat, 4080, Fork.osaka))).toEqual({ ok: true, gasUsed: 4080, output: word(1) })
    expect(modexp(fermat, 4079, Fork.osaka).ok).toBe(false)
    const zero = hex(word(0) + word(32) + word(32) + bytesOf(SECP256K1_P - 1n, 32) + bytesOf(SECP256K1_P, 32))
    expect(shown(modexp(zero, 1360, Fork.berlin))).toEqual({ ok: true, gasUsed: 1360, output: word(0) })
  })
  it("prices go-ethereum's nagydani vectors as it does (Berlin, then Osaka)", () => {
    const qube = call(filler(128, 1), 3n, filler(128, 2), [128, 1, 128]) // nagydani-2-qube
    expect([modexpGas(qube, Fork.berlin), modexpGas(qube, Fork.osaka)]).toEqual([200, 512])
    const pow = call(filler(1024, 3), 0x10001n, filler(1024, 4), [1024, 3, 1024]) // nagydani-5-pow0x10001
    expect([modexpGas(pow, Fork.berlin), modexpGas(pow, Fork.osaka)]).toEqual([87381, 524288])
  })
  it('computes what plain bigint arithmetic does, short and long exponents alike', () => {
    for (const [b, e, m] of [
      [1, 1, 1],
      [32, 3, 32],
      [64, 64, 64],
      [200, 20, 100],
      [3, 300, 7],
    ] as const) {
      const base = filler(b, b)
      const exp = filler(e, e + 1)
      const mod = filler(m, m + 2)
      const r = modexp(call(base, exp, mod, [b, e, m]), 100_000_000, Fork.prague)
      expect(shown(r).output).toBe(bytesOf(reference(base, exp, mod), m))
    }
  })
  it('reads past the input as zeros and returns mod-length output', () => {
    // Modulus declared 4 bytes, absent: zero, so the output is four zero bytes.
    expect(shown(modexp(hex(`${word(1) + word(1) + word(4)}0203`), 1000, Fork.berlin))).toEqual({ ok: true, gasUsed: 200, output: '00000000' })
    // Base 2, exponent 3 given; the modulus' first byte 0x10 given, the rest padding: mod = 0x10000000.
    expect(shown(modexp(hex(`${word(1) + word(1) + word(4)}020310`), 1000, Fork.berlin)).output).toBe('00000008')
  })
  it('fails in Osaka when a length exceeds 1024 bytes (EIP-7823), and not before', () => {
    for (const lengths of [
      [1025, 1, 1],
      [1, 1025, 1],
      [1, 1, 1025],
    ] as [number, number, number][]) {
      const input = call(2n, 1n, 1n, lengths)
      expect(modexp(input, 100_000_000, Fork.osaka)).toEqual({
        ok: false,
        gasUsed: 100_000_000,
        output: new Uint8Array(),
        error: 'one or more of base/exponent/modulus length exceeded 1024 bytes',
      })
      expect(modexp(input, 100_000_000, Fork.prague).ok).toBe(true)
    }
    expect(modexp(call(2n, 1n, 1n, [1024, 1024, 1024]), 1_000_000_000, Fork.osaka).ok).toBe(true) // 520,093,696 gas
    // Nothing to compute, but a length over the bound all the same.
    expect(modexp(hex(word(0) + word(2n ** 255n) + word(0)), 100_000_000, Fork.osaka).ok).toBe(false)
    expect(shown(modexp(hex(word(0) + word(2n ** 255n) + word(0)), 200, Fork.prague))).toEqual({ ok: true, gasUsed: 200, output: '' })
  })
})

describe('modexp (0x05): the same outputs and gas as EthereumJS on edge inputs', () => {
  const inputs = [
    '',
    '00',
    word(0),
    word(0) + word(0) + word(0),
    word(1) + word(1) + word(1),
    `${word(1) + word(1) + word(1)}020305`,
    word(0) + word(32) + word(32) + 'ff'.repeat(64),
    word(33) + word(40) + word(33) + 'ab'.repeat(20),
    `${word(2) + word(40) + word(8)}0102${'00'.repeat(40)}0102030405060708`, // exponent head zero, 40 bytes long
    `${word(2) + word(40) + word(8)}0102${'00'.repeat(32)}00000000000000010102030405060708`, // a 1 past the 32-byte head
    `${word(4) + word(1) + word(0)}01020304ff`,
    `${word(1) + word(1) + word(4)}020300000000`,
    `${word(2n ** 64n) + word(1) + word(1)}02`,
    `${word(1) + word(2n ** 64n) + word(1)}02`,
    word(0) + word(2n ** 255n) + word(0),
    word(1024) + word(3) + word(1024) + '07'.repeat(2051),
    word(1025) + word(1) + word(1) + '07'.repeat(1027),
    word(64) + word(64) + word(64) + 'ff'.repeat(192),
    `${word(32) + word(1) + word(32) + 'ff'.repeat(32)}00${'ff'.repeat(32)}`, // exponent zero: 1 mod m
    `${word(32) + word(1) + word(32) + 'ff'.repeat(32)}05${'00'.repeat(31)}01`, // modulus 1: zero
  ].map(hex)
  for (const fork of [Fork.berlin, Fork.cancun, Fork.prague, Fork.osaka]) {
    it(`in fork ${fork}`, async () => {
      expect(await disagreements(5n, fork, modexp, inputs, (input) => Math.min(modexpGas(input, fork), 2 ** 40))).toEqual([])
    })
  }
})
