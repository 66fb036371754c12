import { paramsBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { paramsEVM } from '@ethereumjs/evm'
import { paramsTx } from '@ethereumjs/tx'
import { paramsVM } from '@ethereumjs/vm'

const LIBRARY_PARAMS: readonly object[] = [paramsBlock, paramsTx, paramsVM, paramsEVM]

/**
 * EthereumJS constructors call `common.updateParams(paramsTx)` (and the block, VM and EVM equivalents) on every
 * transaction, header and VM they create; each call deep-copies the parameter sets and rebuilds the parameter cache.
 * Profiled, that was most of block building's time (a 200-transaction block: ~70% in updateParams). We merge the
 * four library sets into the base Common once — copies share its parameter dictionary — and make repeating them a
 * no-op. Any other parameter set still goes through the library's own update.
 */
export function premergeLibraryParams(common: Common): void {
  for (const p of LIBRARY_PARAMS) common.updateParams(p as never)
  const libraryUpdate = common.updateParams
  const patched = function (this: Common, params: object): void {
    if (LIBRARY_PARAMS.includes(params)) return
    libraryUpdate.call(this, params as never)
  }
  // An own property, so that Common.copy() (a shallow Object.assign) carries it to every copy.
  Object.defineProperty(common, 'updateParams', { value: patched, writable: true, enumerable: true, configurable: true })
}
