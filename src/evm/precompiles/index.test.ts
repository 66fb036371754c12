import { describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { referenceAddresses } from '../../testing/ethereumjsPrecompiles.js'
import { blsMapFp2ToG2 } from './bls12381.js'
import { ecrecover } from './ecrecover.js'
import { precompileAddresses, precompileAt } from './index.js'
import { kzgPointEvaluation } from './kzgPointEvaluation.js'
import { p256Verify } from './p256verify.js'

const FORKS = Object.values(Fork)

describe('precompileAt and precompileAddresses', () => {
  it('finds each precompile from its fork on, and nothing elsewhere', () => {
    expect(precompileAt(1n, Fork.berlin)).toBe(ecrecover)
    expect(precompileAt(0x0an, Fork.shanghai)).toBeUndefined()
    expect(precompileAt(0x0an, Fork.cancun)).toBe(kzgPointEvaluation)
    expect(precompileAt(0x11n, Fork.cancun)).toBeUndefined()
    expect(precompileAt(0x11n, Fork.prague)).toBe(blsMapFp2ToG2)
    expect(precompileAt(0x100n, Fork.prague)).toBeUndefined()
    expect(precompileAt(0x100n, Fork.osaka)).toBe(p256Verify)
    for (const fork of FORKS)
      for (const address of [0n, 0x12n, 0xffn, 0x101n, 0x1_0000_0000_0000_0001n, 2n ** 160n - 1n]) expect(precompileAt(address, fork)).toBeUndefined()
  })
  it('lists the addresses precompileAt finds, as EthereumJS does in each fork', async () => {
    for (const fork of FORKS) {
      const listed = precompileAddresses(fork)
      for (let a = 0n; a <= 0x200n; a++) expect(precompileAt(a, fork) !== undefined, `${a} in ${fork}`).toBe(listed.includes(a))
      expect([...listed].sort((a, b) => Number(a - b))).toEqual((await referenceAddresses(fork)).sort((a, b) => Number(a - b)))
    }
    expect(precompileAddresses(Fork.osaka).length).toBe(18)
  })
})
