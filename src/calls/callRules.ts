import { Fork } from '../chain/evmFork.js'
import { precompileAt } from '../evm/precompiles/index.js'
import type { Precompile } from '../evm/precompiles/types.js'
import { bytesToWord } from '../evm/words.js'
import { TxRejectedError } from '../exec/errors.js'
import { checksumAddress } from '../crypto/checksum.js'
import type { CallInput, CallRequest } from './callInput.js'
import { OverrideError } from './errors.js'

// What geth checks of a call's fields and overrides before it runs one.

/**
 * geth refuses a call whose fields need a fork the call's block does not have (the type field itself is ignored):
 * 1559 fee fields before London, an access list before Berlin, blob fields before Cancun, authorizations before
 * Prague — with its messages, as -32000.
 */
export function checkFieldsActive(c: CallRequest, fork: Fork): void {
  if ((c.maxFeePerGas !== undefined || c.maxPriorityFeePerGas !== undefined) && fork < Fork.london)
    throw new TxRejectedError('maxFeePerGas and maxPriorityFeePerGas are not valid before London is active', 'txTypeNotSupported')
  if (c.authorizationList !== undefined && fork < Fork.prague)
    throw new TxRejectedError('transaction type not supported: setcode tx', 'txTypeNotSupported')
  if ((c.blobVersionedHashes !== undefined || c.maxFeePerBlobGas !== undefined) && fork < Fork.cancun)
    throw new TxRejectedError('transaction type not supported: blob tx', 'txTypeNotSupported')
  if (c.accessList !== undefined && fork < Fork.berlin)
    throw new TxRejectedError('transaction type not supported: access list tx', 'txTypeNotSupported')
}

/**
 * The precompiles a call's overrides move, as geth's StateOverride.Apply: in address order, a precompile moved to
 * an address that no other override names, and every overridden precompile address left without its precompile (so
 * code put there runs). Undefined when nothing moves.
 */
export function movedPrecompiles(overrides: CallInput['stateOverrides'], fork: Fork): Map<bigint, Precompile | undefined> | undefined {
  if (overrides === undefined || overrides.length === 0) return undefined
  const named = new Set(overrides.map((o) => bytesToWord(o.address)))
  const sorted = [...overrides].sort((a, b) => Buffer.compare(a.address, b.address))
  let moves: Map<bigint, Precompile | undefined> | undefined
  const current = (a: bigint) => (moves?.has(a) ? moves.get(a) : precompileAt(a, fork))
  const movedTo = new Set<bigint>()
  for (const { address, override } of sorted) {
    const a = bytesToWord(address)
    if (movedTo.has(a))
      throw new OverrideError(`account ${checksumAddress(address)} has already been overridden by a precompile`, 'movePrecompileTwice')
    const p = current(a)
    if (override.movePrecompileTo !== undefined) {
      if (p === undefined) throw new OverrideError(`account ${checksumAddress(address)} is not a precompile`, 'notAPrecompile')
      const to = bytesToWord(override.movePrecompileTo)
      if (named.has(to)) throw new OverrideError(`account ${checksumAddress(override.movePrecompileTo)} is already overridden`, 'alreadyOverridden')
      moves ??= new Map()
      moves.set(to, p)
      movedTo.add(to)
    }
    if (p !== undefined) {
      moves ??= new Map()
      moves.set(a, undefined)
    }
  }
  return moves
}
