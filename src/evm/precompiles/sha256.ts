import { createHash } from 'node:crypto'
import { sha256 as digest } from '../../crypto/sha256.js'
import { outOfGas, success, wordCount } from './result.js'
import type { PrecompileResult } from './types.js'

/**
 * From this many bytes on, node:crypto (OpenSSL) hashes: ~10x @chainsafe/as-sha256's speed at 4 KiB and more (1.6 GB/s
 * against 170 MB/s of CPU at 85 KB, the EEST sha256 benchmark block's input); below, its fixed cost (~1.7 µs a call)
 * loses to as-sha256 (0.7 µs at 64 bytes).
 */
const NATIVE_FROM = 256

export function sha256Gas(length: number): number {
  return 60 + 12 * wordCount(length)
}

/** 0x02: SHA-256 of the input. */
export function sha256(input: Uint8Array, gasLimit: number): PrecompileResult {
  const gas = sha256Gas(input.length)
  if (gasLimit < gas) return outOfGas(gasLimit)
  return success(gas, input.length < NATIVE_FROM ? digest(input) : Uint8Array.from(createHash('sha256').update(input).digest()))
}
