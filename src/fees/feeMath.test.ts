import { createBlockHeader } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { blobBaseFee, fakeExponential, nextBaseFee, nextExcessBlobGas, rewardPercentiles } from './feeMath.js'

// The fee arithmetic of eth_baseFee, eth_blobBaseFee and eth_feeHistory, checked against EthereumJS's own (the one
// block validation uses) and against the EIP's examples.

const london = new Common({ chain: Mainnet, hardfork: Hardfork.London })
const cancun = new Common({ chain: Mainnet, hardfork: Hardfork.Cancun })

describe('nextBaseFee (EIP-1559)', () => {
  it('agrees with EthereumJS below, at and above the gas target', () => {
    const gasLimit = fc.bigInt({ min: 10_000n, max: 100_000_000n })
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), gasLimit, fc.double({ min: 0, max: 1, noNaN: true }), (baseFee, limit, share) => {
        const gasUsed = BigInt(Math.floor(Number(limit) * share))
        const header = createBlockHeader({ number: 1n, baseFeePerGas: baseFee, gasLimit: limit, gasUsed }, { common: london })
        expect(nextBaseFee(baseFee, gasUsed, limit)).toBe(header.calcNextBaseFee())
      }),
      { seed: 7, numRuns: 500 },
    )
  })

  it('rises by at least 1 wei above the target, stays at it, falls below it', () => {
    expect(nextBaseFee(7n, 15_000_001n, 30_000_000n)).toBe(8n)
    expect(nextBaseFee(1_000_000_000n, 30_000_000n, 30_000_000n)).toBe(1_125_000_000n)
    expect(nextBaseFee(1_000_000_000n, 15_000_000n, 30_000_000n)).toBe(1_000_000_000n)
    expect(nextBaseFee(1_000_000_000n, 0n, 30_000_000n)).toBe(875_000_000n)
  })
})

describe('fakeExponential (EIP-4844)', () => {
  it('gives the known values', () => {
    const cases: [bigint, bigint, bigint, bigint][] = [
      [1n, 0n, 1n, 1n],
      [38493n, 0n, 1000n, 38493n],
      [0n, 1234n, 2345n, 0n],
      [1n, 2n, 1n, 6n],
      [1n, 4n, 2n, 6n],
      [1n, 3n, 1n, 16n],
      [1n, 6n, 2n, 18n],
      [1n, 4n, 1n, 49n],
      [1n, 8n, 2n, 50n],
      [10n, 8n, 2n, 542n],
      [11n, 8n, 2n, 596n],
      [1n, 5n, 1n, 136n],
      [1n, 5n, 2n, 11n],
      [2n, 5n, 2n, 23n],
      [1n, 50_000_000n, 2_225_652n, 5_709_098_764n],
    ]
    for (const [factor, numerator, denominator, out] of cases) expect(fakeExponential(factor, numerator, denominator)).toBe(out)
  })

  it("prices blob gas as EthereumJS does for a header's excess blob gas", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 50_000_000n }), (excessBlobGas) => {
        const header = createBlockHeader({ number: 1n, excessBlobGas, blobGasUsed: 0n }, { common: cancun })
        expect(blobBaseFee(excessBlobGas, 3_338_477n)).toBe(header.getBlobGasPrice())
      }),
      { seed: 11, numRuns: 200 },
    )
  })
})

describe('nextExcessBlobGas (EIP-4844, target 3 blobs)', () => {
  it('carries what the block used above the target, and nothing below it', () => {
    const blob = 131_072n
    expect(nextExcessBlobGas(0n, 6n * blob, 3)).toBe(3n * blob)
    expect(nextExcessBlobGas(5n * blob, 3n * blob, 3)).toBe(5n * blob)
    expect(nextExcessBlobGas(blob, blob, 3)).toBe(0n)
    expect(nextExcessBlobGas(100n, 3n * blob, 3)).toBe(100n)
  })
})

describe("eth_feeHistory's reward percentiles", () => {
  const byTip = [
    { tip: 1n, gas: 21_000n },
    { tip: 5n, gas: 100_000n },
    { tip: 10n, gas: 21_000n },
  ]

  it("weigh each transaction by its gas: the first whose cumulative gas reaches the percentile's share answers", () => {
    // thresholds of 142,000 gas: 0, 14,200, 28,400, 71,000, 127,800, 142,000; cumulative gas 21,000, 121,000, 142,000
    expect(rewardPercentiles(byTip, 142_000n, [0, 10, 20, 50, 90, 100])).toEqual([1n, 1n, 5n, 5n, 10n, 10n])
  })

  it('answer the last tip past the transactions, and zeros for an empty block', () => {
    expect(rewardPercentiles(byTip, 1_000_000n, [99])).toEqual([10n])
    expect(rewardPercentiles([], 0n, [10, 90])).toEqual([0n, 0n])
  })

  it('answer what a walk over every transaction answers, with equal tips kept as one', () => {
    // The walk eth_feeHistory made before tips were kept per distinct tip: transaction by transaction.
    const perTransaction = (txs: { tip: bigint; gas: bigint }[], gasUsed: bigint, percentiles: number[]): bigint[] => {
      const byTip = [...txs].sort((a, b) => (a.tip < b.tip ? -1 : a.tip > b.tip ? 1 : 0))
      if (byTip.length === 0) return percentiles.map(() => 0n)
      let i = 0
      let sum = byTip[0]!.gas
      return percentiles.map((p) => {
        while (Number(sum) < (Number(gasUsed) * p) / 100 && i < byTip.length - 1) sum += byTip[++i]!.gas
        return byTip[i]!.tip
      })
    }
    const tx = fc.record({ tip: fc.bigInt({ min: 0n, max: 6n }), gas: fc.bigInt({ min: 0n, max: 100_000n }) })
    fc.assert(
      fc.property(
        fc.array(tx, { maxLength: 12 }),
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { maxLength: 8 }),
        fc.bigInt({ min: 0n, max: 1_200_000n }),
        (txs, ps, extra) => {
          const percentiles = ps.sort((a, b) => a - b)
          const gasUsed = txs.reduce((s, t) => s + t.gas, 0n) + (extra % 3n === 0n ? 0n : extra)
          expect(rewardPercentiles(txs, gasUsed, percentiles)).toEqual(perTransaction(txs, gasUsed, percentiles))
        },
      ),
      { seed: 13, numRuns: 2000 },
    )
  })
})
