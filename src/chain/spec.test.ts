import { describe, expect, it } from 'vitest'
import { devGenesis } from './dev.js'
import { ChainSpec } from './spec.js'

// Blob-parameter-only forks past the ones EthereumJS knows (it stops at BPO2): execution-spec-tests' BPO2ToBPO3 and
// BPO3ToBPO4 networks schedule them, and the genesis reader refused them ("unknown hardfork=bpo3 specified in
// blobSchedule").

const BLOB_GAS = 131_072n

function bpoGenesis() {
  const g = devGenesis()
  g.config = {
    ...g.config,
    bpo1Time: 0,
    bpo2Time: 0,
    bpo3Time: 15_000,
    bpo4Time: 30_000,
    blobSchedule: {
      ...g.config.blobSchedule,
      bpo1: { target: 10, max: 15, baseFeeUpdateFraction: 8346193 },
      bpo2: { target: 14, max: 21, baseFeeUpdateFraction: 11684671 },
      bpo3: { target: 21, max: 32, baseFeeUpdateFraction: 20609697 },
      bpo4: { target: 14, max: 21, baseFeeUpdateFraction: 13739630 },
    },
  }
  return g
}

describe('a genesis scheduling forks EthereumJS does not know', () => {
  it('is read, and each BPO fork brings its own blob target, maximum and update fraction at its time', () => {
    const spec = new ChainSpec(bpoGenesis())
    const at = (time: bigint) => {
      const c = spec.commonAt(1n, time)
      return { fork: c.hardfork(), schedule: c.getBlobGasSchedule() }
    }
    expect(at(14_999n)).toEqual({
      fork: 'bpo2',
      schedule: { targetBlobGasPerBlock: 14n * BLOB_GAS, maxBlobGasPerBlock: 21n * BLOB_GAS, blobGasPriceUpdateFraction: 11684671n },
    })
    expect(at(15_000n)).toEqual({
      fork: 'bpo3',
      schedule: { targetBlobGasPerBlock: 21n * BLOB_GAS, maxBlobGasPerBlock: 32n * BLOB_GAS, blobGasPriceUpdateFraction: 20609697n },
    })
    expect(at(30_000n)).toEqual({
      fork: 'bpo4',
      schedule: { targetBlobGasPerBlock: 14n * BLOB_GAS, maxBlobGasPerBlock: 21n * BLOB_GAS, blobGasPriceUpdateFraction: 13739630n },
    })
    // Osaka's EIPs hold through them.
    expect(spec.commonAt(1n, 30_000n).isActivatedEIP(7594)).toBe(true)
    expect(spec.forkAt(1n, 15_000n)).toBe('bpo3')
  })
})
