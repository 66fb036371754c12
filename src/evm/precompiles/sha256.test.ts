import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { sha256, sha256Gas } from './sha256.js'

const abc = new TextEncoder().encode('abc')
const sizes = [0, 1, 31, 32, 33, 64, 100, 255, 256, 257, 1024, 100_000]
const inputs = sizes.map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff))

describe('sha256 (0x02)', () => {
  it('hashes, at 60 gas plus 12 a word', () => {
    expect(shown(sha256(abc, 72))).toEqual({ ok: true, gasUsed: 72, output: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' })
    expect([0, 1, 32, 33].map(sha256Gas)).toEqual([60, 72, 72, 84])
    expect(sha256(abc, 71)).toEqual({ ok: false, gasUsed: 71, output: new Uint8Array(), error: 'out of gas' })
  })
  it('agrees with EthereumJS', async () => {
    expect(await disagreements(2n, Fork.osaka, sha256, inputs, (i) => sha256Gas(i.length))).toEqual([])
  })
})
