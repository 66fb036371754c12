import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { disagreements, shown } from '../../testing/ethereumjsPrecompiles.js'
import { identity, identityGas } from './identity.js'

const sizes = [0, 1, 31, 32, 33, 64, 100, 1024, 100_000]
const inputs = sizes.map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff))

describe('identity (0x04)', () => {
  it('returns a copy of its input, at 15 gas plus 3 a word', () => {
    const input = Uint8Array.of(1, 2, 3)
    const r = identity(input, 18)
    expect(shown(r)).toEqual({ ok: true, gasUsed: 18, output: '010203' })
    input[0] = 9
    expect(r.output[0]).toBe(1)
    expect([0, 1, 32, 33].map(identityGas)).toEqual([15, 18, 18, 21])
    expect(identity(input, 17).ok).toBe(false)
  })
  it('agrees with EthereumJS', async () => {
    expect(await disagreements(4n, Fork.osaka, identity, inputs, (i) => identityGas(i.length))).toEqual([])
  })
})
