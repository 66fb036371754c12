import { paramsBlock } from '@ethereumjs/block'
import type { Common } from '@ethereumjs/common'
import { paramsTx } from '@ethereumjs/tx'

const LIBRARY_PARAMS: readonly object[] = [paramsBlock, paramsTx]

/**
 * EthereumJS's constructors call `common.updateParams(paramsTx)` (paramsBlock for a header) on every transaction and
 * header they make; each call deep-copies the parameter sets and rebuilds the parameter cache: decoding an EIP-1559
 * transfer took 79-120 µs with it, 35-47 µs without (2026-11-27, Node 20). We merge the two sets into the base Common
 * once — copies share its parameter dictionary — and make repeating them a no-op. Any other parameter set still goes
 * through the library's own update. (Passing `params: {}` to every constructor would do the same through the public
 * options, at each of the node's call sites.)
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
