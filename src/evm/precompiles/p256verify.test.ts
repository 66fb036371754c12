import { p256 } from '@noble/curves/nist.js'
import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { hexToBytes } from '../../util/hex.js'
import { P256VERIFY_GAS, p256Verify } from './p256verify.js'

const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
const word = (n: bigint): string => n.toString(16).padStart(64, '0')
const N = p256.Point.CURVE().n
const P = p256.Point.CURVE().p
// go-ethereum's CallP256Verify vector: h, r, s, qx, qy.
const VALID =
  '4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4da73bd4903f0ce3b639bbbf6e8e80d16931ff4bcf5993d58468e8fb19086e8cac36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d604aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff37618b065f9832de4ca6ca971a7a1adc826d0f7c00181a5fb2ddf79ae00b4e10e'
const [h, r, s, qx, qy] = [0, 1, 2, 3, 4].map((i) => BigInt(`0x${VALID.slice(64 * i, 64 * i + 64)}`)) as [bigint, bigint, bigint, bigint, bigint]
const input = (...words: bigint[]): Uint8Array => hex(words.map(word).join(''))
const verified = { ok: true, gasUsed: 6900, output: word(1n) }
const notVerified = { ok: true, gasUsed: 6900, output: '' }

/** Signatures from @noble/curves over fixed keys and hashes, s as noble signs it (low) and its high twin. */
function signed(count: number): bigint[][] {
  const out: bigint[][] = []
  for (let i = 1; i <= count; i++) {
    const secret = hexToBytes(`0x${word(BigInt(i) * 0x1234567890abcdefn + 99n)}`)
    const hash = hexToBytes(`0x${word(BigInt(i) * 0xfedcba987654321n)}`)
    const sig = p256.Signature.fromBytes(p256.sign(hash, secret, { prehash: false }))
    const key = p256.Point.fromBytes(p256.getPublicKey(secret, false)).toAffine()
    const e = BigInt(`0x${Buffer.from(hash).toString('hex')}`)
    out.push([e, sig.r, sig.s, key.x, key.y], [e, sig.r, N - sig.s, key.x, key.y])
  }
  return out
}

describe('P256VERIFY (0x100)', () => {
  it('returns the word 1 for a valid signature, high s included', () => {
    expect(shown(p256Verify(hex(VALID), 6900))).toEqual(verified)
    for (const words of signed(3)) expect(shown(p256Verify(input(...words), 6900))).toEqual(verified)
  })
  it('returns nothing, charging its gas, for anything else', () => {
    for (const bad of [
      input(h ^ 1n, r, s, qx, qy),
      input(h, r, s + 1n, qx, qy),
      input(h, 0n, s, qx, qy),
      input(h, r, 0n, qx, qy),
      input(h, N + 1n, s, qx, qy), // r ≥ n
      input(h, N, s, qx, qy),
      input(h, r, s, qx, qy + 1n), // off the curve
      input(h, r, s, P + 1n, qy), // qx ≥ p
      input(h, r, s, 0n, 0n), // infinity's encoding
      hex(VALID.slice(2)),
      hex(`${VALID}00`),
      new Uint8Array(),
    ])
      expect(shown(p256Verify(bad, 10000))).toEqual(notVerified)
  })
  it('fails only with less than 6900 gas', () => {
    expect(p256Verify(hex(VALID), 6899)).toEqual({ ok: false, gasUsed: 6899, output: new Uint8Array(), error: 'out of gas' })
    expect(p256Verify(new Uint8Array(), 6899).ok).toBe(false)
  })
  it('agrees with EthereumJS', async () => {
    const inputs = [
      hex(VALID),
      ...signed(4).map((w) => input(...w)),
      input(h ^ 1n, r, s, qx, qy),
      input(h, N + 1n, s, qx, qy),
      input(h, r, s, P, qy),
      input(2n ** 256n - 1n, r, s, qx, qy), // a hash above n, taken mod n
      input(h, r, s, qx, P - qy), // the key's negation
      input(h, r, s, qx, qy + 1n),
      input(h, r, s, 0n, 0n),
      input(h, 1n, 1n, qx, qy),
      hex(VALID.slice(2)),
      new Uint8Array(),
    ]
    expect(await disagreements(0x100n, Fork.osaka, p256Verify, inputs, () => P256VERIFY_GAS)).toEqual([])
  })
})
