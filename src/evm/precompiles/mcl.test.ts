import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { hexToBytes } from '../../util/hex.js'
import { blsG1Add } from './bls12381.js'
import { bn254Add, bn254Pairing } from './bn254.js'
import { precompileAt } from './index.js'
import { loadedCurves } from './mcl.js'
import { p256Verify } from './p256verify.js'

const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
const word = (n: bigint): string => n.toString(16).padStart(64, '0')
// go-ethereum's vectors: bn256Add chfast1, bn256Pairing jeff1 (two pairs whose product is one), CallP256Verify.
const ADD_IN =
  '18b18acfb4c2c30276db5411368e7185b311dd124691610c5d3b74034e093dc9063c909c4720840cb5134cb9f59fa749755796819658d32efc0d288198f3726607c2b7f58a84bd6145f00c9c2bc0bb1a187f20ff2c92963a88019e7c6a014eed06614e20c147e940f2d70da3f74c9a17df361706a4485c742bd6788478fa17d7'
const ADD_OUT = '2243525c5efd4b9c3d3c45ac0ca3fe4dd85e830a4ce6b65fa1eeaee202839703301d1d33be6da8e509df21cc35964723180eed7532537db9ae5e7d48f195c915'
const PAIRING =
  '1c76476f4def4bb94541d57ebba1193381ffa7aa76ada664dd31c16024c43f593034dd2920f673e204fee2811c678745fc819b55d3e9d294e45c9b03a76aef41209dd15ebff5d46c4bd888e51a93cf99a7329636c63514396b4a452003a35bf704bf11ca01483bfa8b34b43561848d28905960114c8ac04049af4b6315a416782bb8324af6cfc93537a2ad1a445cfd0ca2a71acd7ac41fadbf933c2a51be344d120a2a4cf30c1bf9845f20c6fe39e07ea2cce61f0c9bb048165fe5e4de877550111e129f1cf1097710d41c4ac70fcdfa5ba2023c6ff1cbeac322de49d1b6df7c' +
  '2032c61a830e3c17286de9462bf242fca2883585b93870a73853face6a6bf411' +
  '198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c21800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa'
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
    expect(bn254Add(hex(ADD_IN), 149).ok).toBe(false)
    expect(loadedCurves()).toBe(0)

    expect(out(bn254Add(hex(ADD_IN), 150))).toBe(ADD_OUT)
    expect(out(bn254Pairing(hex(PAIRING), 113000))).toBe(word(1n))
    expect(loadedCurves()).toBe(1)

    expect(out(blsG1Add(new Uint8Array(256), 375))).toBe('00'.repeat(128))
    expect(loadedCurves()).toBe(2)

    expect(out(p256Verify(hex(P256_VALID), 6900))).toBe(word(1n))
    expect(loadedCurves()).toBe(3)
  })
})
