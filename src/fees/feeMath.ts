// The fee arithmetic the fee methods (eth_baseFee, eth_blobBaseFee, eth_feeHistory, the tip oracle) compute from
// stored headers and receipts, without building EthereumJS headers. Block validation uses EthereumJS's own
// (calcNextBaseFee, calcNextExcessBlobGas); feeMath.test.ts checks these agree with it.

export const GAS_PER_BLOB = 131_072n
const MIN_BLOB_BASE_FEE = 1n

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

/** EIP-4844's fake_exponential: factor · e^(numerator / denominator), in integers. */
export function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n
  let output = 0n
  let acc = factor * denominator
  while (acc > 0n) {
    output += acc
    acc = (acc * numerator) / (denominator * i)
    i++
  }
  return output / denominator
}

/** The blob base fee an excess of blob gas sets (EIP-4844, with the fork's update fraction). */
export function blobBaseFee(excessBlobGas: bigint, updateFraction: bigint): bigint {
  return fakeExponential(MIN_BLOB_BASE_FEE, excessBlobGas, updateFraction)
}

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
 * eth_feeHistory's rewards: the tip at each percentile of a block's gas, geth's weighting — transactions sorted by
 * tip ascending, each counting its gas used; the first whose cumulative gas reaches the percentile's share of the
 * block's gas answers. Zeros for a block without transactions.
 */
export function rewardPercentiles(byTip: readonly TipAndGas[], blockGasUsed: bigint, percentiles: readonly number[]): bigint[] {
  if (byTip.length === 0) return percentiles.map(() => 0n)
  const out: bigint[] = []
  let i = 0
  let sum = byTip[0]!.gas
  for (const p of percentiles) {
    const threshold = (Number(blockGasUsed) * p) / 100
    while (Number(sum) < threshold && i < byTip.length - 1) {
      i++
      sum += byTip[i]!.gas
    }
    out.push(byTip[i]!.tip)
  }
  return out
}

/** Bigint order for sort (the default compares as strings). */
export const ascending = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)
