import type { BlockHeader } from '@ethereumjs/block'
import { Address, bigIntToAddressBytes, bigIntToBytes, setLengthLeft } from '@ethereumjs/util'
import type { VM } from '@ethereumjs/vm'
import { hexToBytes } from '../util/hex.js'
import { InvalidBlockError } from './errors.js'

const SYSTEM_ADDRESS = '0xfffffffffffffffffffffffffffffffffffffffe'
/** EIP-7002 and EIP-7251 request contracts: their end-of-block system calls are checked (prague.md, EIP-7685). */
const CHECKED = new Map([
  ['0x00000961ef480eb55e80d19ad83579a64c007002', 7002],
  ['0x0000bbddc7ce488642fb579f8b00f3a590007251', 7251],
])

/**
 * EthereumJS 10.1.3 ignores a failing withdrawal or consolidation request system call and treats a contract without
 * code as having no requests; the EIPs make both an invalid block. This wraps our VM's `runCall` to enforce it.
 */
export function enforceCheckedSystemCalls(vm: VM): void {
  const evm = vm.evm
  const original = evm.runCall.bind(evm)
  evm.runCall = async (opts) => {
    const to = opts.to?.toString()
    const eip = to === undefined ? undefined : CHECKED.get(to)
    const checked = eip !== undefined && opts.caller?.toString() === SYSTEM_ADDRESS
    if (checked && (await vm.stateManager.getCode(opts.to!)).length === 0) {
      throw new InvalidBlockError(`system contract empty: no code at EIP-${eip} request contract ${to}`)
    }
    const result = await original(opts)
    if (checked && result.execResult.exceptionError !== undefined) {
      throw new InvalidBlockError(`system contract call failed: EIP-${eip} request contract ${to} (${result.execResult.exceptionError.error})`)
    }
    return result
  }
}

/** Before a Prague block runs: the request contracts must exist (EthereumJS silently skips missing ones). */
export async function checkRequestContractsExist(vm: VM): Promise<void> {
  for (const [address, eip] of CHECKED) {
    if (!vm.common.isActivatedEIP(eip)) continue
    const code = await vm.stateManager.getCode(new Address(hexToBytes(address)))
    if (code.length === 0) throw new InvalidBlockError(`system contract empty: no code at EIP-${eip} request contract ${address}`)
  }
}

const BEACON_ROOTS = new Address(hexToBytes('0x000f3df6d732807ef1319fb7b8bb8522d0beac02'))
const word = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 32)

/**
 * The start-of-block system writes, as EthereumJS's runBlock makes them (two storage writes to the contracts'
 * ring buffers, not a call into their code; nothing when the contract has no code): EIP-4788's beacon root
 * (Cancun on) and EIP-2935's parent hash (Prague on).
 */
export async function applyStartOfBlockSystemWrites(vm: VM, header: BlockHeader): Promise<void> {
  const state = vm.stateManager
  if (vm.common.isActivatedEIP(4788)) {
    if ((await state.getCode(BEACON_ROOTS)).length !== 0) {
      const length = vm.common.param('historicalRootsLength')
      const index = header.timestamp % length
      await state.putStorage(BEACON_ROOTS, word(index), bigIntToBytes(header.timestamp))
      await state.putStorage(BEACON_ROOTS, word(index + length), header.parentBeaconBlockRoot!)
    }
    await vm.evm.journal.cleanup()
  }
  if (vm.common.isActivatedEIP(2935)) {
    const history = new Address(bigIntToAddressBytes(vm.common.param('historyStorageAddress')))
    if ((await state.getCode(history)).length !== 0) {
      await state.putStorage(history, word((header.number - 1n) % vm.common.param('historyServeWindow')), header.parentHash)
    }
    await vm.evm.journal.cleanup()
  }
}
