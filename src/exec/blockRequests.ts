import { Address, bigIntToAddressBytes, bytesToBigInt } from '@ethereumjs/util'
import type { TxReceipt, VM } from '@ethereumjs/vm'
import { concatBytes, equalBytes, hexToBytes } from '../util/hex.js'
import { InvalidBlockError } from './errors.js'

/** Mainnet's deposit contract: EthereumJS's default when a chain names none. */
const MAINNET_DEPOSIT_CONTRACT = hexToBytes('0x00000000219ab540356cbb839cbe05303d7705fa')
const DEPOSIT_TOPIC = hexToBytes('0x649bbc62d0e31342afea4e5cd82d4049e7e1ee912fc0889aa790803be39038c5')
/** DepositEvent(bytes pubkey, bytes withdrawal_credentials, bytes amount, bytes signature, bytes index): ABI layout. */
const DEPOSIT_FIELDS = [
  { offset: 160, size: 48 },
  { offset: 256, size: 32 },
  { offset: 320, size: 8 },
  { offset: 384, size: 96 },
  { offset: 512, size: 8 },
] as const
const DEPOSIT_LOG_SIZE = 576

/**
 * EIP-7685's requests of an executed block, each `type ‖ data`, in type order: deposits parsed from the deposit
 * contract's logs (EIP-6110), then the withdrawal (EIP-7002) and consolidation (EIP-7251) queues drained by a system
 * call each. The calls run through the VM's checked `runCall` (systemCalls.ts), which makes a failing one invalid.
 */
export async function accumulateBlockRequests(vm: VM, receipts: TxReceipt[], depositContract: Uint8Array | undefined): Promise<Uint8Array[]> {
  const requests: Uint8Array[] = []
  if (vm.common.isActivatedEIP(6110))
    requests.push(concatBytes(Uint8Array.of(0), depositRequests(receipts, depositContract ?? MAINNET_DEPOSIT_CONTRACT)))
  if (vm.common.isActivatedEIP(7002)) requests.push(concatBytes(Uint8Array.of(1), await systemCall(vm, 'withdrawalRequestPredeployAddress')))
  if (vm.common.isActivatedEIP(7251)) requests.push(concatBytes(Uint8Array.of(2), await systemCall(vm, 'consolidationRequestPredeployAddress')))
  return requests
}

function depositRequests(receipts: TxReceipt[], contract: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = []
  for (const receipt of receipts) {
    for (const [address, topics, data] of receipt.logs) {
      if (topics.length === 0 || !equalBytes(topics[0]!, DEPOSIT_TOPIC) || !equalBytes(address, contract)) continue
      parts.push(...parseDepositLog(data))
    }
  }
  return concatBytes(...parts)
}

/** The five fields of a deposit log; any other layout makes the block invalid (EIP-6110). */
function parseDepositLog(data: Uint8Array): Uint8Array[] {
  const bad = () => new InvalidBlockError('invalid deposit log: unsupported data layout')
  if (data.length !== DEPOSIT_LOG_SIZE) throw bad()
  return DEPOSIT_FIELDS.map(({ offset, size }, i) => {
    if (bytesToBigInt(data.subarray(32 * i, 32 * i + 32)) !== BigInt(offset)) throw bad()
    if (bytesToBigInt(data.subarray(offset, offset + 32)) !== BigInt(size)) throw bad()
    return data.subarray(offset + 32, offset + 32 + size)
  })
}

/** A call from the system address with the system gas limit; the system account is left as it was. */
async function systemCall(vm: VM, contractParam: string): Promise<Uint8Array> {
  const state = vm.stateManager
  const contract = new Address(bigIntToAddressBytes(vm.common.param(contractParam)))
  const system = new Address(bigIntToAddressBytes(vm.common.param('systemAddress')))
  const systemAccount = await state.getAccount(system)
  const result = await vm.evm.runCall({ caller: system, to: contract, gasLimit: vm.common.param('systemCallGasLimit') })
  if (systemAccount === undefined) await state.deleteAccount(system)
  else await state.putAccount(system, systemAccount)
  return result.execResult.returnValue
}
