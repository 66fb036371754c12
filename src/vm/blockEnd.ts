import { Fork } from '../chain/evmFork.js'
import { SYSTEM_CONTRACTS } from '../chain/systemContracts.js'
import { Status } from '../evm/frame.js'
import type { Evm } from '../evm/interpreter.js'
import type { Log } from '../evm/state.js'
import { systemCall } from '../evm/systemCall.js'
import { addressToBytes, bytesToWord } from '../evm/words.js'
import { concatBytes } from '../util/hex.js'

// What a block does after its transactions: EIP-4895's withdrawals credited (Shanghai on), then EIP-7685's requests
// (Prague on) — deposits parsed from the deposit contract's logs (EIP-6110), the withdrawal (EIP-7002) and
// consolidation (EIP-7251) queues drained by a system call each.

export interface Withdrawal {
  address: bigint
  /** In gwei. */
  amount: bigint
}

const GWEI = 1_000_000_000n

/** Credits each withdrawal; an empty account credited nothing is not created (EIP-161's touch). */
export function applyWithdrawals(evm: Evm, withdrawals: readonly Withdrawal[]): void {
  const state = evm.state
  for (const w of withdrawals) state.addBalance(state.get(w.address), w.amount * GWEI)
  state.endTransaction()
}

const address = (name: string): bigint => BigInt(SYSTEM_CONTRACTS.find((c) => c.name === name)!.address)
const WITHDRAWAL_REQUESTS = address('WITHDRAWAL_REQUEST_PREDEPLOY_ADDRESS')
const CONSOLIDATION_REQUESTS = address('CONSOLIDATION_REQUEST_PREDEPLOY_ADDRESS')
/** Mainnet's deposit contract: where a chain that names none has it. */
const MAINNET_DEPOSIT_CONTRACT = 0x00000000219ab540356cbb839cbe05303d7705fan
const DEPOSIT_TOPIC = 0x649bbc62d0e31342afea4e5cd82d4049e7e1ee912fc0889aa790803be39038c5n
/** DepositEvent(bytes pubkey, bytes withdrawal_credentials, bytes amount, bytes signature, bytes index): ABI layout. */
const DEPOSIT_FIELDS = [
  { offset: 160, size: 48 },
  { offset: 256, size: 32 },
  { offset: 320, size: 8 },
  { offset: 384, size: 96 },
  { offset: 512, size: 8 },
] as const
const DEPOSIT_LOG_SIZE = 576

/** Why a block's requests make it invalid (EIP-6110's log layout, EIP-7002/7251's system calls). */
export class InvalidRequestsError extends Error {
  override readonly name = 'InvalidRequestsError'
}

/**
 * EIP-7685's requests, each `type ‖ data`, in type order; nothing before Prague. `logs` are the block's, in order.
 * Throws InvalidRequestsError when a deposit log has another layout, or a request contract has no code or its call
 * fails.
 */
export function blockRequests(evm: Evm, logs: readonly Log[], depositContract: bigint | undefined): Uint8Array[] {
  if (evm.fork < Fork.prague) return []
  const contract = depositContract ?? MAINNET_DEPOSIT_CONTRACT
  const deposits: Uint8Array[] = []
  for (const log of logs) {
    if (log.address !== contract || log.topics[0] !== DEPOSIT_TOPIC) continue
    deposits.push(...depositFields(log.data))
  }
  return [
    concatBytes(Uint8Array.of(0), ...deposits),
    concatBytes(Uint8Array.of(1), drain(evm, WITHDRAWAL_REQUESTS, 7002)),
    concatBytes(Uint8Array.of(2), drain(evm, CONSOLIDATION_REQUESTS, 7251)),
  ]
}

/** A request queue's system call: its output is the requests. */
function drain(evm: Evm, contract: bigint, eip: number): Uint8Array {
  const state = evm.state
  if (state.codeOf(state.get(contract)).length === 0)
    throw new InvalidRequestsError(
      `system contract empty: no code at EIP-${eip} request contract 0x${Buffer.from(addressToBytes(contract)).toString('hex')}`,
    )
  const r = systemCall(evm, contract, new Uint8Array())
  state.endTransaction()
  if (r.status !== Status.success)
    throw new InvalidRequestsError(`system contract call failed: EIP-${eip} request contract (${r.error ?? 'reverted'})`)
  return r.output
}

function depositFields(data: Uint8Array): Uint8Array[] {
  const bad = () => new InvalidRequestsError('invalid deposit log: unsupported data layout')
  if (data.length !== DEPOSIT_LOG_SIZE) throw bad()
  return DEPOSIT_FIELDS.map(({ offset, size }, i) => {
    if (bytesToWord(data.subarray(32 * i, 32 * i + 32)) !== BigInt(offset)) throw bad()
    if (bytesToWord(data.subarray(offset, offset + 32)) !== BigInt(size)) throw bad()
    return data.subarray(offset + 32, offset + 32 + size)
  })
}
