import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { hexToBytes } from '../../util/hex.js'
import { ECRECOVER_GAS, ecrecover } from './ecrecover.js'

const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
// go-ethereum's ValidKey vector: hash, v = 28, r, s; signed by 0xa94f5374fce5edbc8e2a8697c15331677e6ebf0b.
const HASH = '18c547e4f7b0f325ad1e56f57e26c745b09a3e503d86e00e5255ff7f715d3d1c'
const R = '73b1693892219d736caba55bdb67216e485557ea6b6af75f37096c9aa6a5a75f'
const S = 'eeb940b1d03b21e36b0e47e79769f095fe2ab855bd91e3a38756b7d75a9c4549'
const V28 = `${'00'.repeat(31)}1c`
const N = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141'
const valid = HASH + V28 + R + S

describe('ecrecover (0x01)', () => {
  it('recovers the signer as a left-padded word', () => {
    expect(shown(ecrecover(hex(valid), 3000))).toEqual({
      ok: true,
      gasUsed: 3000,
      output: `${'00'.repeat(12)}a94f5374fce5edbc8e2a8697c15331677e6ebf0b`,
    })
    // Bytes past 128 are ignored.
    expect(shown(ecrecover(hex(`${valid}ff`), 5000)).output).toBe(`${'00'.repeat(12)}a94f5374fce5edbc8e2a8697c15331677e6ebf0b`)
  })
  it('charges its gas and returns nothing for a signature it cannot recover', () => {
    const nothing = { ok: true, gasUsed: 3000, output: '' }
    for (const bad of [
      `${HASH}${'00'.repeat(31)}1d${R}${S}`, // v = 29
      `${HASH}10${'00'.repeat(30)}1c${R}${S}`, // v with high bits set
      `${HASH}${V28}${'00'.repeat(32)}${S}`, // r = 0
      `${HASH}${V28}${R}${N}`, // s = n
      `${HASH}${V28}${N}${S}`, // r = n
      HASH + V28, // r and s read as zeros
      '',
    ])
      expect(shown(ecrecover(hex(bad), 3000))).toEqual(nothing)
  })
  it('fails with less than 3000 gas', () => {
    expect(ecrecover(hex(valid), 2999)).toEqual({ ok: false, gasUsed: 2999, output: new Uint8Array(), error: 'out of gas' })
  })
  it('agrees with EthereumJS on edge inputs', async () => {
    const highS = (BigInt(`0x${N}`) - BigInt(`0x${S}`)).toString(16).padStart(64, '0')
    const inputs = [
      valid,
      `${HASH}${'00'.repeat(31)}1b${R}${highS}`, // the other recovery id with s' = n - s: a high s, accepted
      `${HASH}${'00'.repeat(31)}1b${R}${S}`,
      valid.slice(0, 200),
      valid.slice(0, 64),
      `${valid}00ff`,
      `${HASH}${'00'.repeat(31)}1d${R}${S}`,
      `${HASH}${'01'.repeat(31)}1c${R}${S}`,
      `${HASH}${V28}${'ff'.repeat(32)}${S}`,
      `${HASH}${V28}${R}${'00'.repeat(32)}`,
      `${HASH}${V28}${'00'.repeat(31)}05${S}`, // r with no point of the curve at x = 5
      '',
    ].map(hex)
    expect(await disagreements(1n, Fork.osaka, ecrecover, inputs, () => ECRECOVER_GAS)).toEqual([])
  })
})
