import { Fork } from '../chain/evmFork.js'
import { SYSTEM_CONTRACTS } from '../chain/systemContracts.js'
import type { Evm } from '../evm/interpreter.js'
import { systemCall } from '../evm/systemCall.js'
import type { HeaderView } from '../store/headerView.js'

// The system calls a block makes before its transactions: EIP-4788's beacon root (Cancun on) and EIP-2935's parent
// hash (Prague on), each a call of the contract's code from the system address (nothing when it has no code).

const address = (name: string): bigint => BigInt(SYSTEM_CONTRACTS.find((c) => c.name === name)!.address)
const BEACON_ROOTS = address('BEACON_ROOTS_ADDRESS')
const HISTORY_STORAGE = address('HISTORY_STORAGE_ADDRESS')

export function applyBlockStart(evm: Evm, header: HeaderView): void {
  const root = header.parentBeaconBlockRoot
  if (evm.fork >= Fork.cancun && root !== undefined) {
    systemCall(evm, BEACON_ROOTS, root)
    evm.state.endTransaction()
  }
  if (evm.fork >= Fork.prague) {
    systemCall(evm, HISTORY_STORAGE, header.parentHash)
    evm.state.endTransaction()
  }
}
