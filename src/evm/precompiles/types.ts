import type { Fork } from '../../chain/evmFork.js'

/**
 * A precompile's outcome. A failure (bad input, or more gas needed than given) consumes all the gas the call was given
 * and returns nothing: `ok: false` with `gasUsed` equal to the limit, and `error`.
 */
export interface PrecompileResult {
  ok: boolean
  gasUsed: number
  output: Uint8Array
  /**
   * Why it failed, in geth's words (core/vm/contracts.go and the crypto packages it calls; "out of gas" for too little
   * gas): the call's halt reason, which eth_call answers. Set on every failure.
   */
  error?: string
}

/** Runs one precompile on its input with `gasLimit` gas; never throws on any input. */
export type Precompile = (input: Uint8Array, gasLimit: number, fork: Fork) => PrecompileResult
