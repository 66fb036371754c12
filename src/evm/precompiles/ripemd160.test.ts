import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { ripemd160, ripemd160Gas } from './ripemd160.js'

const abc = new TextEncoder().encode('abc')
const sizes = [0, 1, 31, 32, 33, 64, 100, 1024, 100_000]
const inputs = sizes.map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff))

describe('ripemd160 (0x03)', () => {
  it('hashes into a left-padded word, at 600 gas plus 120 a word', () => {
    expect(shown(ripemd160(abc, 720))).toEqual({ ok: true, gasUsed: 720, output: `${'00'.repeat(12)}8eb208f7e05d987a9b044a8e98c6b087f15a0bfc` })
    expect([0, 1, 32, 33].map(ripemd160Gas)).toEqual([600, 720, 720, 840])
    expect(ripemd160(abc, 719).ok).toBe(false)
  })
  it('agrees with EthereumJS', async () => {
    expect(await disagreements(3n, Fork.osaka, ripemd160, inputs, (i) => ripemd160Gas(i.length))).toEqual([])
  })
})
