import { outOfGas, success, wordCount } from './result.js'
import type { PrecompileResult } from './types.js'

export function identityGas(length: number): number {
  return 15 + 3 * wordCount(length)
}

/** 0x04: the input itself, copied: the input is usually a view of the caller's memory, which changes after the call. */
export function identity(input: Uint8Array, gasLimit: number): PrecompileResult {
  const gas = identityGas(input.length)
  if (gasLimit < gas) return outOfGas(gasLimit)
  return success(gas, input.slice())
}
