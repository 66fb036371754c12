import type { PrecompileResult } from './types.js'

/** The empty output: shared, since nothing can be written into it. */
export const EMPTY = new Uint8Array(0)

/** geth's words for a precompile given less gas than it costs (vm.ErrOutOfGas). */
export const OUT_OF_GAS = 'out of gas'

/** A failure: all the gas the call was given is consumed and nothing returned; `error` says why, in geth's words. */
export function failure(gasLimit: number, error: string): PrecompileResult {
  return { ok: false, gasUsed: gasLimit, output: EMPTY, error }
}

/** Less gas than the precompile costs. */
export function outOfGas(gasLimit: number): PrecompileResult {
  return failure(gasLimit, OUT_OF_GAS)
}

export function success(gasUsed: number, output: Uint8Array): PrecompileResult {
  return { ok: true, gasUsed, output }
}

/** 32-byte words an input of `length` bytes occupies, as the per-word prices count them. */
export function wordCount(length: number): number {
  return Math.ceil(length / 32)
}
