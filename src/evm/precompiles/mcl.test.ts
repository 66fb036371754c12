import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { hexToBytes } from '../../util/hex.js'
import { BN254_ADD_IN, BN254_ADD_OUT, BN254_PAIRING_ONE } from '../../testing/bn254Vectors.js'
import { blsG1Add } from './bls12381.js'
import { bn254Add, bn254Pairing } from './bn254.js'
import { precompileAt } from './index.js'
import { loadedCurves } from './mcl.js'
import { p256Verify } from './p256verify.js'

const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
const word = (n: bigint): string => n.toString(16).padStart(64, '0')
// go-ethereum's vectors: CallP256Verify (BN254's in testing/bn254Vectors.ts).
const P256_VALID =
  '4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4da73bd4903f0ce3b639bbbf6e8e80d16931ff4bcf5993d58468e8fb19086e8cac36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d604aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff37618b065f9832de4ca6ca971a7a1adc826d0f7c00181a5fb2ddf79ae00b4e10e'
const out = (r: { output: Uint8Array }): string => Buffer.from(r.output).toString('hex')

describe('the curves of the precompiles', () => {
  // Before: importing the precompiles loaded all three curves, ~60 MiB and 0.65 s in every thread, a node's idle
  // threads included. Each loads now, synchronously, inside the first call of one of its precompiles.
  it('load on the first call of one of their precompiles, which answers right', () => {
    expect(precompileAt(6n, Fork.osaka)).toBe(bn254Add)
    expect(loadedCurves()).toBe(0)
    // Refused before the curve is touched: too little gas loads nothing.
    expect(bn254Add(hex(BN254_ADD_IN), 149).ok).toBe(false)
    expect(loadedCurves()).toBe(0)

    expect(out(bn254Add(hex(BN254_ADD_IN), 150))).toBe(BN254_ADD_OUT)
    expect(out(bn254Pairing(hex(BN254_PAIRING_ONE), 113000))).toBe(word(1n))
    expect(loadedCurves()).toBe(1)

    expect(out(blsG1Add(new Uint8Array(256), 375))).toBe('00'.repeat(128))
    expect(loadedCurves()).toBe(2)

    expect(out(p256Verify(hex(P256_VALID), 6900))).toBe(word(1n))
    expect(loadedCurves()).toBe(3)
  })
})
