import { type Account, toChecksumAddress } from '@ethereumjs/util'
import type { BlockTx } from '../codecs/blockTx.js'
import { TxRejectedError } from '../exec/errors.js'
import { GAS_PER_BLOB } from '../chain/blobFee.js'

/** gas * fee cap + value (+ blob gas * blob fee cap): what the sender must hold, as geth checks it. */
export function upfrontCost(tx: BlockTx): bigint {
  return tx.gasLimit * tx.maxFeePerGas + tx.value + BigInt(tx.blobVersionedHashes.length) * GAS_PER_BLOB * tx.maxFeePerBlobGas
}

/**
 * The checks against state geth's state transition makes before executing a transaction, with its messages, so that
 * callers see "nonce too high: address 0x…, tx: 999 state: 0" rather than EthereumJS's wording. They follow the rules
 * (txRules.ts validTx) the pool and the builder share. `header` is the block the transaction would be included in
 * (its base fee; none for the pool, where a transaction may wait for a lower one), `account` the sender's account on
 * the parent state.
 */
export function checkTxAgainstState(
  tx: BlockTx,
  sender: Uint8Array,
  account: Pick<Account, 'nonce' | 'balance'> | undefined,
  header: { baseFeePerGas: bigint | undefined },
  nonceMustMatch: boolean,
): void {
  // Only the messages name the sender: its checksum (a keccak) is made for a refusal, not for every transaction.
  const fromOf = () => toChecksumAddress(`0x${Buffer.from(sender).toString('hex')}`)
  const stateNonce = account?.nonce ?? 0n
  if (tx.nonce < stateNonce) throw new TxRejectedError(`nonce too low: address ${fromOf()}, tx: ${tx.nonce} state: ${stateNonce}`, 'nonceTooLow')
  if (nonceMustMatch && tx.nonce > stateNonce) {
    throw new TxRejectedError(`nonce too high: address ${fromOf()}, tx: ${tx.nonce} state: ${stateNonce}`, 'nonceTooHigh')
  }
  const baseFee = header.baseFeePerGas
  if (baseFee !== undefined && tx.maxFeePerGas < baseFee) {
    throw new TxRejectedError(
      `max fee per gas less than block base fee: address ${fromOf()}, maxFeePerGas: ${tx.maxFeePerGas}, baseFee: ${baseFee}`,
      'feeCapTooLow',
    )
  }
  const balance = account?.balance ?? 0n
  const cost = upfrontCost(tx)
  if (balance < cost) {
    throw new TxRejectedError(`insufficient funds for gas * price + value: address ${fromOf()} have ${balance} want ${cost}`, 'insufficientFunds')
  }
}
