// EIP-4844's blob base fee from a block's excess blob gas: what BLOBBASEFEE reads and what a blob transaction pays per
// blob gas (the fork's update fraction from the chain's blob schedule).

/** Blob gas a blob takes (EIP-4844's GAS_PER_BLOB). */
export const GAS_PER_BLOB = 131_072n

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
  return fakeExponential(1n, excessBlobGas, updateFraction)
}
