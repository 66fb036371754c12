import { type TypedTransaction, isAccessList2930Tx, isLegacyTx } from '@ethereumjs/tx'

/** The fee cap: gasPrice for legacy and access-list transactions, maxFeePerGas for the others. */
export function maxFeeOf(tx: TypedTransaction): bigint {
  return isLegacyTx(tx) || isAccessList2930Tx(tx) ? tx.gasPrice : (tx as { maxFeePerGas: bigint }).maxFeePerGas
}

/** The miner's tip per gas at a base fee (the max priority fee when no base fee is given). */
export function effectiveTipAt(tx: TypedTransaction, baseFee: bigint | undefined): bigint {
  const cap = maxFeeOf(tx)
  const tipCap = isLegacyTx(tx) || isAccessList2930Tx(tx) ? cap : (tx as { maxPriorityFeePerGas: bigint }).maxPriorityFeePerGas
  if (baseFee === undefined) return tipCap
  return cap - baseFee < tipCap ? cap - baseFee : tipCap
}
