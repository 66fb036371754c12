import { createBlockHeader } from '@ethereumjs/block'
import { describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { INITIAL_BASE_FEE, nextBaseFee, nextExcessBlobGas } from './headerFees.js'

// A child's base fee and excess blob gas, checked against EthereumJS's header arithmetic (EIP-1559, EIP-4844 and
// EIP-7918's reserve price at Osaka).

const spec = new ChainSpec(devGenesis())
const common = spec.commonAt(1n, 0n)
const osaka = spec.blobParamsAt(0n)!

function parent(baseFee: bigint, gasUsed: bigint, excessBlobGas: bigint, blobGasUsed: bigint) {
  return createBlockHeader(
    { number: 1n, gasLimit: 36_000_000n, gasUsed, baseFeePerGas: baseFee, excessBlobGas, blobGasUsed },
    { common, skipConsensusFormatValidation: true },
  )
}

describe('a child header’s fees', () => {
  it('base fee: up, down and level with the target, as EthereumJS’s', () => {
    for (const [fee, used] of [
      [1_000_000_000n, 0n],
      [1_000_000_000n, 18_000_000n],
      [1_000_000_000n, 36_000_000n],
      [7n, 36_000_000n],
      [7n, 17_000_000n],
      [0n, 20_000_000n],
    ] as const) {
      const p = parent(fee, used, 0n, 0n)
      expect(nextBaseFee({ baseFee: fee, gasUsed: used, gasLimit: 36_000_000n })).toBe(p.calcNextBaseFee())
    }
    expect(nextBaseFee({ baseFee: undefined, gasUsed: 0n, gasLimit: 1n })).toBe(INITIAL_BASE_FEE)
  })

  it('excess blob gas: below and above the target, and under EIP-7918’s reserve price, as EthereumJS’s', () => {
    const blob = 131_072n
    for (const [fee, excess, used] of [
      [0n, 0n, 3n * blob],
      [0n, 0n, 9n * blob],
      [0n, 10_000_000n, 9n * blob],
      // A base fee that prices blob gas above the blob fee: the reserve price path.
      [1_000_000_000n, 0n, 9n * blob],
      [1_000_000_000n, 50_000_000n, 2n * blob],
    ] as const) {
      const p = parent(fee, 0n, excess, used)
      expect(nextExcessBlobGas({ baseFee: fee, excessBlobGas: excess, blobGasUsed: used }, osaka, true), `${fee} ${excess} ${used}`).toBe(
        p.calcNextExcessBlobGas(common),
      )
    }
    // A parent before Cancun has neither: no excess.
    expect(nextExcessBlobGas({ baseFee: 1n, excessBlobGas: undefined, blobGasUsed: undefined }, osaka, true)).toBe(0n)
  })
})
