import type { Fork } from '../../chain/evmFork.js'
import type { Precompile } from './types.js'

// Placeholder until the precompiles land (issue 22 item 3): no address is a precompile.
export function precompileAt(_address: bigint, _fork: Fork): Precompile | undefined {
  return undefined
}

export function precompileAddresses(_fork: Fork): readonly bigint[] {
  return []
}
