import type { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { TxRejectedError } from '../exec/errors.js'
import type { CallInput } from './callInput.js'

/** Balance, nonce, code and storage overrides, written into the state (inside the caller's checkpoint). */
export async function applyStateOverrides(sm: MerkleStateManager, overrides: CallInput['stateOverrides']): Promise<void> {
  for (const { address, override: o } of overrides ?? []) {
    const a = new Address(address)
    if (o.balance !== undefined || o.nonce !== undefined) {
      await sm.modifyAccountFields(a, {
        ...(o.balance === undefined ? {} : { balance: o.balance }),
        ...(o.nonce === undefined ? {} : { nonce: o.nonce }),
      })
    }
    if (o.code !== undefined) await sm.putCode(a, o.code)
    if (o.state !== undefined) {
      await sm.clearStorage(a)
      for (const s of o.state) await sm.putStorage(a, s.slot, s.value)
    }
    for (const s of o.stateDiff ?? []) await sm.putStorage(a, s.slot, s.value)
  }
}

/** movePrecompileToAddress, as geth applies it; returns what puts the precompiles back. */
export function movePrecompiles(vm: VM, overrides: CallInput['stateOverrides']): () => void {
  const map = vm.evm.precompiles
  const moves = (overrides ?? []).filter((o) => o.override.movePrecompileTo !== undefined)
  if (moves.length === 0) return () => {}
  const saved = new Map(map)
  const key = (a: Uint8Array) => Buffer.from(a).toString('hex')
  const restore = () => {
    map.clear()
    for (const [k, v] of saved) map.set(k, v)
  }
  const moved = new Set<string>()
  for (const { address, override } of moves) {
    const from = key(address)
    const to = key(override.movePrecompileTo!)
    const fn = saved.get(from)
    if (fn === undefined) {
      restore()
      throw new TxRejectedError(`account 0x${from} is not a precompile`, 'notAPrecompile')
    }
    if (moved.has(to)) {
      restore()
      throw new TxRejectedError(`account 0x${to} has already been overridden by a precompile`, 'movePrecompileTwice')
    }
    moved.add(to)
    map.delete(from)
    map.set(to, fn)
  }
  return restore
}
