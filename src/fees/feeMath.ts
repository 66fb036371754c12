// The fee arithmetic the fee methods (eth_baseFee, eth_blobBaseFee, eth_feeHistory, the tip oracle) compute from
// stored headers and receipts, without building EthereumJS headers. Block validation uses EthereumJS's own
// (calcNextBaseFee, calcNextExcessBlobGas); feeMath.test.ts checks these agree with it.

import { GAS_PER_BLOB } from '../chain/blobFee.js'

export { GAS_PER_BLOB }

/** EIP-1559's next base fee from a parent's gas use (elasticity 2, change denominator 8). */
export function nextBaseFee(baseFee: bigint, gasUsed: bigint, gasLimit: bigint): bigint {
  const target = gasLimit / 2n
  if (gasUsed === target) return baseFee
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / 8n
    return baseFee + (delta > 1n ? delta : 1n)
  }
  return baseFee - (baseFee * (target - gasUsed)) / target / 8n
}

// EIP-4844's blob base fee, which block execution computes too (src/chain/blobFee.ts).
export { blobBaseFee, fakeExponential } from '../chain/blobFee.js'

/** The next block's excess blob gas (EIP-4844, without EIP-7918's reserve price: the oracle's estimate). */
export function nextExcessBlobGas(excessBlobGas: bigint, blobGasUsed: bigint, targetBlobs: number): bigint {
  const sum = excessBlobGas + blobGasUsed
  const target = BigInt(targetBlobs) * GAS_PER_BLOB
  return sum < target ? 0n : sum - target
}

/** One transaction's tip per gas and the gas it used. */
export interface TipAndGas {
  tip: bigint
  gas: bigint
}

/**
 * A block's transactions as eth_feeHistory's rewards read them (geth's weighting: by tip ascending, each counting its
 * gas used), kept as each distinct tip with the cumulative gas through the last transaction paying it. Transactions
 * of equal tips answer the same tip wherever a percentile falls among them, so one entry a tip answers exactly what
 * one a transaction would, in less memory (a block's transactions often share a few tips).
 */
export class TipCurve {
  private constructor(
    /** Distinct tips, ascending. */
    readonly tips: readonly bigint[],
    /** The gas used through each tip's last transaction: the exact sum as a double, which is what the walk compares. */
    private readonly cumulativeGas: Float64Array,
  ) {}

  /** From transactions in any order. */
  static of(txs: readonly TipAndGas[]): TipCurve {
    const sorted = [...txs].sort((a, b) => ascending(a.tip, b.tip))
    const tips: bigint[] = []
    const cumulative: number[] = []
    let sum = 0n
    for (const t of sorted) {
      sum += t.gas
      if (tips.length > 0 && tips[tips.length - 1] === t.tip) cumulative[cumulative.length - 1] = Number(sum)
      else {
        tips.push(t.tip)
        cumulative.push(Number(sum))
      }
    }
    return new TipCurve(tips, Float64Array.from(cumulative))
  }

  get length(): number {
    return this.tips.length
  }

  /**
   * The index of the tip that answers a percentile whose share of the block's gas is `threshold`: the first whose
   * cumulative gas reaches it, else the last. Percentiles ascend, so each search starts where the previous ended
   * (`from`). Not for an empty curve.
   */
  indexAt(threshold: number, from: number): number {
    let i = from
    while (this.cumulativeGas[i]! < threshold && i < this.tips.length - 1) i++
    return i
  }
}

/** The share of a block's gas (as a double, as geth computes it) that a reward percentile names. */
export function percentileGas(blockGasUsed: number, percentile: number): number {
  return (blockGasUsed * percentile) / 100
}

/** eth_feeHistory's rewards of one block's transactions (any order) at ascending `percentiles`; zeros without any. */
export function rewardPercentiles(txs: readonly TipAndGas[], blockGasUsed: bigint, percentiles: readonly number[]): bigint[] {
  const curve = TipCurve.of(txs)
  if (curve.length === 0) return percentiles.map(() => 0n)
  const out: bigint[] = []
  let i = 0
  for (const p of percentiles) {
    i = curve.indexAt(percentileGas(Number(blockGasUsed), p), i)
    out.push(curve.tips[i]!)
  }
  return out
}

/** Bigint order for sort (the default compares as strings). */
export const ascending = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)
