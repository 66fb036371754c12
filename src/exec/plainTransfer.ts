import type { BlockHeader } from '@ethereumjs/block'
import { type TypedTransaction, TransactionType } from '@ethereumjs/tx'
import { Account, type Address, KECCAK256_NULL, bytesToUnprefixedHex, equalsBytes } from '@ethereumjs/util'
import type { TxReceipt, VM } from '@ethereumjs/vm'
import { effectiveTipAt, maxFeeOf } from './fees.js'

/** A plain transfer's gas: intrinsic only (no data, no access list; EIP-7623's floor is the same 21,000). */
export const TRANSFER_GAS = 21_000n
const MAX_BALANCE = (1n << 256n) - 1n

/** What a plain transfer paid: per gas, and to the fee recipient in all. */
export interface PlainTransfer {
  gasPrice: bigint
  minerValue: bigint
}

/**
 * A value transfer to an account without code, applied to the state directly instead of through `runTx` and the
 * interpreter: the sender pays and its nonce moves, the recipient is credited, the fee recipient takes the tip, and
 * an account left empty by being touched is removed (EIP-158), exactly as the EVM would leave them. Returns
 * undefined, having changed nothing, whenever the transaction is anything else or would be rejected — `runTx` then
 * runs it (and gives its own verdict). Only for post-London blocks with none of EthereumJS's later experimental EIPs
 * active (blockProcessor.ts decides).
 */
export async function applyPlainTransfer(vm: VM, tx: TypedTransaction, header: BlockHeader): Promise<PlainTransfer | undefined> {
  const to = tx.to
  if (to === undefined || tx.data.length !== 0 || tx.gasLimit < TRANSFER_GAS) return undefined
  if (tx.type === TransactionType.BlobEIP4844 || tx.type === TransactionType.EOACodeEIP7702) return undefined
  if (tx.type !== TransactionType.Legacy && (tx as { accessList: unknown[] }).accessList.length !== 0) return undefined
  if (vm.evm.precompiles.has(bytesToUnprefixedHex(to.bytes))) return undefined

  const baseFee = header.baseFeePerGas!
  const maxFee = maxFeeOf(tx)
  if (maxFee < baseFee) return undefined
  const price = baseFee + effectiveTipAt(tx, baseFee)
  const maxCost = tx.value + tx.gasLimit * maxFee

  const state = vm.stateManager
  const senderAddress = tx.getSenderAddress()
  const sender = await state.getAccount(senderAddress)
  if (sender === undefined || !equalsBytes(sender.codeHash, KECCAK256_NULL)) return undefined
  if (sender.nonce !== tx.nonce || sender.balance < maxCost) return undefined
  const recipient = await state.getAccount(to)
  if (recipient !== undefined && !equalsBytes(recipient.codeHash, KECCAK256_NULL)) return undefined
  if ((recipient?.balance ?? 0n) + tx.value > MAX_BALANCE) return undefined

  sender.balance -= TRANSFER_GAS * price + tx.value
  sender.nonce += 1n
  await state.putAccount(senderAddress, sender)
  // Read again after each write: the recipient or the fee recipient may be the sender.
  await credit(vm, to, tx.value)
  const minerValue = TRANSFER_GAS * (price - baseFee)
  await credit(vm, header.coinbase, minerValue)
  return { gasPrice: price, minerValue }
}

/** A plain transfer's receipt: successful, no logs, an empty bloom. */
export function plainTransferReceipt(cumulativeBlockGasUsed: bigint): TxReceipt {
  return { status: 1, cumulativeBlockGasUsed, bitvector: new Uint8Array(256), logs: [] }
}

/** Adds `amount`; the account was touched, so if it is left empty it is removed (or never created). */
async function credit(vm: VM, address: Address, amount: bigint): Promise<void> {
  const state = vm.stateManager
  const existing = await state.getAccount(address)
  const account = existing ?? new Account()
  account.balance += amount
  if (!account.isEmpty()) await state.putAccount(address, account)
  else if (existing !== undefined) await state.deleteAccount(address)
}
