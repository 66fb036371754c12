import type { WorldState } from '../evm/state.js'
import { bytesToWord } from '../evm/words.js'
import type { CallInput } from './callInput.js'

/**
 * A call's state overrides written into its state before it runs (WorldState.override): balance, nonce, code, the
 * whole storage (`state`) or some slots (`stateDiff`). Precompile moves are the EVM's (callRules.ts movedPrecompiles).
 */
export function applyStateOverrides(state: WorldState, overrides: CallInput['stateOverrides']): void {
  for (const { address, override: o } of overrides ?? []) {
    if (o.balance === undefined && o.nonce === undefined && o.code === undefined && o.state === undefined && o.stateDiff === undefined) continue
    state.override(bytesToWord(address), {
      ...(o.balance === undefined ? {} : { balance: o.balance }),
      ...(o.nonce === undefined ? {} : { nonce: o.nonce }),
      ...(o.code === undefined ? {} : { code: o.code }),
      ...(o.state === undefined ? {} : { storage: slotsOf(o.state) }),
      ...(o.stateDiff === undefined ? {} : { storageDiff: slotsOf(o.stateDiff) }),
    })
  }
}

function slotsOf(list: { slot: Uint8Array; value: Uint8Array }[]): Map<bigint, bigint> {
  return new Map(list.map((s) => [bytesToWord(s.slot), bytesToWord(s.value)]))
}
