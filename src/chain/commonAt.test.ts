import { describe, expect, it } from 'vitest'
import { devGenesis } from './dev.js'
import { ChainSpec } from './spec.js'

describe('ChainSpec.commonAt', () => {
  const genesis = devGenesis()
  const spec = new ChainSpec({ ...genesis, config: { ...genesis.config, cancunTime: 0, pragueTime: 100, osakaTime: 200 } })

  it('gives the fork of each block, sharing one Common among the blocks of a fork scheduled by time', () => {
    const cancun = spec.commonAt(1n, 50n)
    expect(spec.commonAt(2n, 150n).hardfork()).toBe('prague')
    expect(spec.commonAt(3n, 250n).hardfork()).toBe('osaka')
    expect(spec.commonAt(4n, 99n)).toBe(cancun)
    expect(cancun.hardfork()).toBe('cancun')
    expect(cancun.isActivatedEIP(7702)).toBe(false)
    expect(spec.commonAt(5n, 100n).isActivatedEIP(7702)).toBe(true)
  })
})
