import { newKzgProofService, useKzgProofService } from '../crypto/kzgProofService.js'
import { setPrecompileCache } from './precompiles/cache.js'

/**
 * What every thread that runs the EVM is set up with, the same in each: the main thread makes them (makeEvmThreadSettings)
 * and hands them to its workers and serving threads in their init, and each thread applies them (useEvmThreadSettings).
 */
export interface EvmThreadSettings {
  /** The node's or the reader's KZG proof service (crypto/kzgProofService.ts): the point-evaluation precompile asks its thread. */
  kzgProofs?: SharedArrayBuffer
  /** `--no-precompile-cache`: every precompile call runs (evm/precompiles/cache.ts). */
  noPrecompileCache?: true
}

/** A node's or a reader's settings: a new KZG proof service, and the precompile cache on unless `precompileCache` is false. */
export function makeEvmThreadSettings(precompileCache: boolean | undefined): EvmThreadSettings & { kzgProofs: SharedArrayBuffer } {
  return { kzgProofs: newKzgProofService(), ...(precompileCache === false ? { noPrecompileCache: true } : {}) }
}

/** Sets this thread up as `s` says. */
export function useEvmThreadSettings(s: EvmThreadSettings): void {
  useKzgProofService(s.kzgProofs)
  setPrecompileCache(s.noPrecompileCache !== true)
}
