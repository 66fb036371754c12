import type { PrecompileResult } from './types.js'

/** The empty output: shared, since nothing can be written into it. */
export const EMPTY = new Uint8Array(0)

/** A failure: all the gas the call was given is consumed and nothing returned. */
export function failure(gasLimit: number): PrecompileResult {
  return { ok: false, gasUsed: gasLimit, output: EMPTY }
}

export function success(gasUsed: number, output: Uint8Array): PrecompileResult {
  return { ok: true, gasUsed, output }
}

/** 32-byte words an input of `length` bytes occupies, as the per-word prices count them. */
export function wordCount(length: number): number {
  return Math.ceil(length / 32)
}
