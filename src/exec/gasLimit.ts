/**
 * The next block's gas limit: toward `target` by at most parent/1024 - 1 (geth's CalcGasLimit), never below 5000.
 */
export function nextGasLimit(parentGasLimit: bigint, target: bigint): bigint {
  const desired = target < 5000n ? 5000n : target
  const delta = parentGasLimit / 1024n - 1n
  let limit = parentGasLimit
  if (limit < desired) {
    limit = parentGasLimit + delta
    if (limit > desired) limit = desired
  }
  if (limit > desired) {
    limit = parentGasLimit - delta
    if (limit < desired) limit = desired
  }
  return limit
}
