import type { Fork } from '../../chain/evmFork.js'

/**
 * A precompile's outcome. A failure (bad input, or more gas needed than given) consumes all the gas the call was given
 * and returns nothing: `ok: false` with `gasUsed` equal to the limit.
 */
export interface PrecompileResult {
  ok: boolean
  gasUsed: number
  output: Uint8Array
  /** Why it refused, in geth's words, where it says more than running out of gas. */
  error?: string
}

/** Runs one precompile on its input with `gasLimit` gas; never throws on any input. */
export type Precompile = (input: Uint8Array, gasLimit: number, fork: Fork) => PrecompileResult
