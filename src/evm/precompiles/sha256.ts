import { sha256 as digest } from '../../crypto/sha256.js'
import { outOfGas, success, wordCount } from './result.js'
import type { PrecompileResult } from './types.js'

export function sha256Gas(length: number): number {
  return 60 + 12 * wordCount(length)
}

/** 0x02: SHA-256 of the input. */
export function sha256(input: Uint8Array, gasLimit: number): PrecompileResult {
  const gas = sha256Gas(input.length)
  if (gasLimit < gas) return outOfGas(gasLimit)
  return success(gas, digest(input))
}
