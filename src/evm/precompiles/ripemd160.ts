import { createRequire } from 'node:module'
import { outOfGas, success, wordCount } from './result.js'
import type { PrecompileResult } from './types.js'

// hash-wasm's WASM RIPEMD-160 measured ~3.4× @noble/hashes and ~2-4× node:crypto here (docs/performance.md, EVM
// precompiles). Top-level await: compiled once per thread, as crypto/keccak.ts does, from its one-algorithm build
// as there.
const { createRIPEMD160 } = createRequire(import.meta.url)('hash-wasm/dist/ripemd160.umd.min.js') as Pick<
  typeof import('hash-wasm'),
  'createRIPEMD160'
>
const hasher = await createRIPEMD160()

export function ripemd160Gas(length: number): number {
  return 600 + 120 * wordCount(length)
}

/** 0x03: RIPEMD-160 of the input, left-padded to a 32-byte word. */
export function ripemd160(input: Uint8Array, gasLimit: number): PrecompileResult {
  const gas = ripemd160Gas(input.length)
  if (gasLimit < gas) return outOfGas(gasLimit)
  hasher.init()
  hasher.update(input)
  const output = new Uint8Array(32)
  output.set(hasher.digest('binary'), 12)
  return success(gas, output)
}
