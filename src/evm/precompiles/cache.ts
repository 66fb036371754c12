import type { Fork } from '../../chain/evmFork.js'
import { blsG1Msm, blsG2Msm, blsMapFp2ToG2, blsMapFpToG1, blsPairingCheck } from './bls12381.js'
import { bn254Mul, bn254Pairing } from './bn254.js'
import { ecrecover } from './ecrecover.js'
import { kzgPointEvaluation } from './kzgPointEvaluation.js'
import { modexp } from './modexp.js'
import { p256Verify } from './p256verify.js'
import { success } from './result.js'
import type { Precompile, PrecompileResult } from './types.js'

// The successful results of the costly precompiles, kept by fork and input on each thread, as reth's engine keeps
// them (its precompile cache, on by default): a result is a function of the fork and the input alone, and a success
// costs the same gas whatever gas it was given, so a hit with enough gas is that success again. Failures are not kept
// (given too little gas, a precompile fails where it would succeed with more). Left out, the precompiles a call of
// which can cost about what its key does: the hashes, the identity, BLAKE2F (a round costs one gas; bench:eest's
// one-round fixture ran 2.6x slower through the cache), and the three point additions (150-600 gas).

/** Each costly precompile's tag in a key (its address, but any distinct number would do). */
const COSTLY = new Map<Precompile, number>([
  [ecrecover, 0x01],
  [modexp, 0x05],
  [bn254Mul, 0x07],
  [bn254Pairing, 0x08],
  [kzgPointEvaluation, 0x0a],
  [blsG1Msm, 0x0c],
  [blsG2Msm, 0x0e],
  [blsPairingCheck, 0x0f],
  [blsMapFpToG1, 0x10],
  [blsMapFp2ToG2, 0x11],
  [p256Verify, 0x100],
])

/** Bounds of one thread's cache: entries, and bytes of keys and outputs; an input past MAX_INPUT is never kept. */
const MAX_ENTRIES = 8192
const MAX_BYTES = 16 * 1024 * 1024
const MAX_INPUT = 64 * 1024

interface Entry {
  gasUsed: number
  output: Uint8Array
  bytes: number
}

const entries = new Map<string, Entry>()
let bytes = 0
let enabled = true

/** Turns the cache on or off for this thread (off empties it); `--no-precompile-cache` turns it off on every thread. */
export function setPrecompileCache(on: boolean): void {
  enabled = on
  if (!on) clearPrecompileCache()
}

export function clearPrecompileCache(): void {
  entries.clear()
  bytes = 0
}

/** Entries and bytes held now. */
export function precompileCacheSize(): { entries: number; bytes: number } {
  return { entries: entries.size, bytes }
}

/** Runs `precompile` on `input`, or answers a success it gave before on the same fork and input. */
export function runPrecompile(precompile: Precompile, input: Uint8Array, gasLimit: number, fork: Fork): PrecompileResult {
  const tag = COSTLY.get(precompile)
  if (tag === undefined || !enabled || input.length > MAX_INPUT) return precompile(input, gasLimit, fork)
  const key = String.fromCharCode(tag, fork) + Buffer.from(input.buffer, input.byteOffset, input.length).toString('latin1')
  const hit = entries.get(key)
  // A copy: an output may be handed on, and a transferred buffer would leave the entry detached.
  if (hit !== undefined && hit.gasUsed <= gasLimit) return success(hit.gasUsed, hit.output.slice())
  const r = precompile(input, gasLimit, fork)
  if (r.ok && hit === undefined) remember(key, r)
  return r
}

function remember(key: string, r: PrecompileResult): void {
  const size = key.length + r.output.length
  entries.set(key, { gasUsed: r.gasUsed, output: r.output.slice(), bytes: size })
  bytes += size
  // The oldest first: a block's repeated inputs are met again soon after they are first seen.
  for (const [oldest, entry] of entries) {
    if (entries.size <= MAX_ENTRIES && bytes <= MAX_BYTES) break
    entries.delete(oldest)
    bytes -= entry.bytes
  }
}
