import { GAS_PER_BLOB, blobBaseFee } from '../chain/blobFee.js'
import type { BlobParams } from '../chain/forks.js'

// What a child header's fee fields are, from its parent's: EIP-1559's base fee and EIP-4844's excess blob gas with
// EIP-7918's reserve price from Osaka (geth's eip1559.CalcBaseFee and eip4844.CalcExcessBlobGas).

const ELASTICITY = 2n
const CHANGE_DENOMINATOR = 8n
/** A London block's base fee when its parent had none. */
export const INITIAL_BASE_FEE = 1_000_000_000n
/** EIP-7918's BLOB_BASE_COST. */
const BLOB_BASE_COST = 8192n

/** The base fee of a child of a parent with this base fee (undefined: before London) and gas. */
export function nextBaseFee(parent: { baseFee: bigint | undefined; gasUsed: bigint; gasLimit: bigint }): bigint {
  const baseFee = parent.baseFee
  if (baseFee === undefined) return INITIAL_BASE_FEE
  const target = parent.gasLimit / ELASTICITY
  if (parent.gasUsed === target) return baseFee
  if (parent.gasUsed > target) {
    const delta = (baseFee * (parent.gasUsed - target)) / target / CHANGE_DENOMINATOR
    return baseFee + (delta > 1n ? delta : 1n)
  }
  const delta = (baseFee * (target - parent.gasUsed)) / target / CHANGE_DENOMINATOR
  return baseFee > delta ? baseFee - delta : 0n
}

/**
 * The excess blob gas of a child under `params` (the blob schedule at the child's time), from its parent's excess and
 * blob gas (undefined before Cancun: none) and base fee; `osaka`: the child is Osaka or later (EIP-7918).
 */
export function nextExcessBlobGas(
  parent: { excessBlobGas: bigint | undefined; blobGasUsed: bigint | undefined; baseFee: bigint | undefined },
  params: BlobParams,
  osaka: boolean,
): bigint {
  const excess = parent.excessBlobGas ?? 0n
  const used = parent.excessBlobGas === undefined ? 0n : (parent.blobGasUsed ?? 0n)
  const target = BigInt(params.target) * GAS_PER_BLOB
  if (excess + used < target) return 0n
  if (osaka) {
    // Blob gas priced under the execution gas it competes with grows the excess by the share above target only.
    const reserve = BLOB_BASE_COST * (parent.baseFee ?? 0n)
    const price = blobBaseFee(excess, BigInt(params.baseFeeUpdateFraction)) * GAS_PER_BLOB
    if (reserve > price) return excess + (used * BigInt(params.max - params.target)) / BigInt(params.max)
  }
  return excess + used - target
}
