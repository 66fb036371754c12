import { Fork } from '../chain/evmFork.js'
import type { BlockEnv } from './env.js'
import { TxRejectedError } from './errors.js'
import { delegationTarget } from './code.js'
import { CallKind, Status } from './frame.js'
import { createAddress, type Evm } from './interpreter.js'
import { splitGas, wholeGas } from './wideGas.js'
import { precompileAddresses } from './precompiles/index.js'
import { type Log, EMPTY_CODE_HASH } from './state.js'
import { applyAuthorizations, type Authorization } from './authorization.js'
import { Halt } from './halts.js'

// A transaction on the state, as geth's state transition does it: the checks in geth's order (each refusal a
// TxRejectedError kind, the state untouched), the fee bought, the access sets warmed, EIP-7702 authorizations applied,
// the message run, refunds capped, EIP-7623's floor, the sender's change returned and the coinbase paid.

export interface AccessListEntry {
  address: bigint
  storageKeys: readonly bigint[]
}

export interface EvmTransaction {
  type: number
  sender: bigint
  /** Undefined for a contract creation. */
  to: bigint | undefined
  nonce: bigint
  gasLimit: bigint
  value: bigint
  data: Uint8Array
  /** Types 0 and 1. */
  gasPrice: bigint
  /** Types 2 and later (for 0 and 1: the gas price). */
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
  accessList: readonly AccessListEntry[]
  maxFeePerBlobGas: bigint
  blobHashes: readonly bigint[]
  authorizations: readonly Authorization[]
}

export interface BlockLimits {
  /** Blobs one block may hold (the fork's blob schedule), for a transaction that alone exceeds it. */
  maxBlobsPerBlock: number
}

/**
 * A message that is not a transaction (eth_call and its kin), as geth runs them: no nonce checks, no EIP-3607 or
 * EIP-7825 (SkipNonceChecks, SkipTransactionChecks), no block gas limit (the caller caps the gas), and with no fee
 * fields no fee checks and no fee to the coinbase (NoBaseFee; the caller sets the block's base fee to 0 then).
 */
export interface CallMode {
  call: true
}

export interface TxOutcome {
  status: Status
  /**
   * Gas the block counts (after refunds and EIP-7623's floor); exact below 2^53, which a block's gas always is (the
   * fees are reckoned exactly whatever it is).
   */
  gasUsed: number
  /** The refund granted (geth's peak gas use is gasUsed plus this, before the floor). */
  refund: number
  logs: Log[]
  output: Uint8Array
  created: bigint | undefined
  halt: Halt | undefined
  error: string | undefined
}

const TX_GAS = 21000
const TX_CREATE_GAS = 53000
const MAX_INITCODE_SIZE = 49152
const TX_GAS_CAP = 1 << 24
const GAS_PER_BLOB = 131072
const MAX_BLOBS_PER_TX_OSAKA = 6
const PER_EMPTY_ACCOUNT_COST = 25000
const MAX_NONCE = 0xffffffffffffffffn
const MAX_UINT256 = (1n << 256n) - 1n
/** The fork each transaction type arrived in. */
const TYPE_FORK: readonly Fork[] = [Fork.frontier, Fork.berlin, Fork.london, Fork.cancun, Fork.prague]

/** The gas a transaction pays before running, and EIP-7623's floor (0 before Prague). */
export function intrinsicGas(tx: EvmTransaction, fork: Fork): { gas: number; floor: number } {
  let zeros = 0
  const data = tx.data
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++
  const nonZeros = data.length - zeros
  // A creation pays for its contract from Homestead (EIP-2); a non-zero byte of data 68 until Istanbul's EIP-2028.
  const base = tx.to === undefined && fork >= Fork.homestead ? TX_CREATE_GAS : TX_GAS
  let gas = base + zeros * 4 + nonZeros * (fork >= Fork.istanbul ? 16 : 68)
  if (tx.to === undefined && fork >= Fork.shanghai) gas += 2 * Math.ceil(data.length / 32)
  for (const e of tx.accessList) gas += 2400 + 1900 * e.storageKeys.length
  gas += PER_EMPTY_ACCOUNT_COST * tx.authorizations.length
  const floor = fork >= Fork.prague ? TX_GAS + 10 * (zeros + 4 * nonZeros) : 0
  return { gas, floor }
}

/** The price per gas the sender pays. */
export function effectiveGasPrice(tx: EvmTransaction, baseFee: bigint, fork: Fork): bigint {
  if (tx.type < 2 || fork < Fork.london) return tx.gasPrice
  const tip = tx.maxFeePerGas - baseFee
  return baseFee + (tip < tx.maxPriorityFeePerGas ? tip : tx.maxPriorityFeePerGas)
}

/**
 * Applies `tx` to `evm`'s state. Throws TxRejectedError (the state unchanged) when the transaction cannot be included.
 * The caller ends the transaction on the state (`evm.state.endTransaction()`) after reading what it needs.
 */
export function applyTransaction(evm: Evm, tx: EvmTransaction, limits: BlockLimits, mode?: CallMode): TxOutcome {
  const { fork, state } = evm
  const block: BlockEnv = evm.block
  const sender = state.get(tx.sender)
  const isCreate = tx.to === undefined
  const isCall = mode?.call === true
  const free = isCall && tx.maxFeePerGas === 0n && tx.maxPriorityFeePerGas === 0n

  // The type's fork, and the types that cannot create (what geth's decoder and txpool refuse).
  const since = TYPE_FORK[tx.type]
  if (since === undefined || fork < since) throw new TxRejectedError('transaction type not supported', 'txTypeNotSupported')
  if (tx.type >= 3 && isCreate)
    throw new TxRejectedError(`${tx.type === 3 ? 'blob' : 'set code'} transaction cannot create a contract`, 'invalidTransaction')
  // Stateless and state checks, geth's order (core/state_transition.go preCheck).
  if (!isCall && tx.gasLimit > block.gasLimit)
    throw new TxRejectedError(`gas limit ${tx.gasLimit} exceeds block gas limit ${block.gasLimit}`, 'exceedsBlockGasLimit')
  if (!isCall && fork >= Fork.osaka && tx.gasLimit > BigInt(TX_GAS_CAP))
    throw new TxRejectedError(`transaction gas limit too high (cap: ${TX_GAS_CAP}, tx: ${tx.gasLimit})`, 'gasLimitTooHigh')
  if (!isCall) {
    if (tx.nonce >= MAX_NONCE) throw new TxRejectedError(`nonce has max value: address 0x${tx.sender.toString(16)}, nonce: ${tx.nonce}`, 'nonceMax')
    if (sender.nonce < tx.nonce)
      throw new TxRejectedError(`nonce too high: address 0x${tx.sender.toString(16)}, tx: ${tx.nonce} state: ${sender.nonce}`, 'nonceTooHigh')
    if (sender.nonce > tx.nonce)
      throw new TxRejectedError(`nonce too low: address 0x${tx.sender.toString(16)}, tx: ${tx.nonce} state: ${sender.nonce}`, 'nonceTooLow')
  }
  if (!isCall && sender.codeHash !== EMPTY_CODE_HASH) {
    const delegated = fork >= Fork.prague && delegationTarget(state.codeOf(sender)) !== undefined
    if (!delegated) throw new TxRejectedError(`sender not an eoa: address 0x${tx.sender.toString(16)}`, 'senderNotEoa')
  }
  if (fork >= Fork.london && !free) {
    if (tx.maxFeePerGas > MAX_UINT256) throw new TxRejectedError('max fee per gas higher than 2^256-1', 'feeCapVeryHigh')
    if (tx.maxPriorityFeePerGas > MAX_UINT256) throw new TxRejectedError('max priority fee per gas higher than 2^256-1', 'tipVeryHigh')
    if (tx.maxPriorityFeePerGas > tx.maxFeePerGas) throw new TxRejectedError('max priority fee per gas higher than max fee per gas', 'tipAboveFeeCap')
    if (tx.maxFeePerGas < block.baseFee)
      throw new TxRejectedError(
        `max fee per gas less than block base fee: maxFeePerGas: ${tx.maxFeePerGas}, baseFee: ${block.baseFee}`,
        'feeCapTooLow',
      )
  }
  if (tx.type === 3) {
    if (tx.blobHashes.length === 0) throw new TxRejectedError('blob transaction missing blob hashes', 'invalidTransaction')
    if (fork >= Fork.osaka && tx.blobHashes.length > MAX_BLOBS_PER_TX_OSAKA)
      throw new TxRejectedError(
        `too many blobs in transaction: have ${tx.blobHashes.length}, permitted ${MAX_BLOBS_PER_TX_OSAKA}`,
        'invalidTransaction',
      )
    if (tx.blobHashes.length > limits.maxBlobsPerBlock) throw new TxRejectedError(`blob gas used exceeds the block's maximum`, 'invalidTransaction')
    for (const h of tx.blobHashes) if (h >> 248n !== 1n) throw new TxRejectedError('blob with invalid hash version', 'invalidTransaction')
    if (!(isCall && tx.maxFeePerBlobGas === 0n) && tx.maxFeePerBlobGas < block.blobBaseFee)
      throw new TxRejectedError(
        `max fee per blob gas less than block blob gas fee: blobFeeCap: ${tx.maxFeePerBlobGas}, blobBaseFee: ${block.blobBaseFee}`,
        'blobFeeCapTooLow',
      )
  }
  if (tx.type === 4 && tx.authorizations.length === 0) throw new TxRejectedError('EIP-7702 transaction with empty auth list', 'invalidTransaction')

  // Buying the gas.
  const price = effectiveGasPrice(tx, block.baseFee, fork)
  const blobGas = BigInt(GAS_PER_BLOB * tx.blobHashes.length)
  const feeCap = tx.type >= 2 ? tx.maxFeePerGas : tx.gasPrice
  const needed = tx.gasLimit * feeCap + tx.value + blobGas * tx.maxFeePerBlobGas
  if (sender.balance < needed)
    throw new TxRejectedError(
      `insufficient funds for gas * price + value: address 0x${tx.sender.toString(16)} have ${sender.balance} want ${needed}`,
      'insufficientFunds',
    )

  const { gas: intrinsic, floor } = intrinsicGas(tx, fork)
  if (tx.gasLimit < BigInt(intrinsic))
    throw new TxRejectedError(`intrinsic gas too low: have ${tx.gasLimit}, want ${intrinsic}`, 'intrinsicGasTooLow')
  if (tx.gasLimit < BigInt(floor))
    throw new TxRejectedError(`insufficient gas for floor data gas cost: have ${tx.gasLimit}, want ${floor}`, 'intrinsicGasTooLow')
  if (isCreate && fork >= Fork.shanghai && tx.data.length > MAX_INITCODE_SIZE)
    throw new TxRejectedError(`max initcode size exceeded: code size ${tx.data.length} limit ${MAX_INITCODE_SIZE}`, 'maxInitCodeSizeExceeded')

  state.subBalance(sender, tx.gasLimit * price + blobGas * block.blobBaseFee)
  const start = splitGas(tx.gasLimit - BigInt(intrinsic))

  // The access sets (EIP-2929, EIP-2930, EIP-3651), from Berlin.
  if (fork >= Fork.berlin) {
    state.warmAddress(tx.sender)
    if (tx.to !== undefined) state.warmAddress(tx.to)
    for (const a of precompileAddresses(fork)) state.warmAddress(a)
    if (fork >= Fork.shanghai) state.warmAddress(block.coinbase)
    for (const e of tx.accessList) {
      state.warmAddress(e.address)
      const acc = state.get(e.address)
      for (const k of e.storageKeys) state.warmSlot(acc, k)
    }
  }

  evm.tx = { origin: tx.sender, gasPrice: price, blobHashes: tx.blobHashes }
  let to: bigint
  if (tx.to === undefined) {
    to = createAddress(tx.sender, sender.nonce)
    state.setNonce(sender, sender.nonce + 1n)
  } else {
    to = tx.to
    state.setNonce(sender, sender.nonce + 1n)
    if (tx.type === 4) applyAuthorizations(evm, tx.authorizations)
    if (fork >= Fork.prague) {
      // A delegated destination's delegate is warm for the transaction (execution-specs, process_message_call).
      const target = delegationTarget(state.codeOf(state.get(to)))
      if (target !== undefined) state.warmAddress(target)
    }
  }
  const result = evm.run({
    kind: isCreate ? CallKind.create : CallKind.call,
    caller: tx.sender,
    to,
    codeAddress: to,
    value: tx.value,
    apparentValue: tx.value,
    input: tx.data,
    gas: start.gas,
    gasBase: start.base,
    isStatic: false,
    depth: 0,
  })

  // Refunds (EIP-3529: a fifth of the gas used from London), then EIP-7623's floor. In bigints: an older fork's
  // transaction may burn more than 2^53 gas, and every unit of it is paid for.
  let gasUsed = tx.gasLimit - wholeGas(result.gasLeft, result.gasBase)
  const counter = BigInt(Math.max(state.refund, 0))
  const cap = gasUsed / (fork >= Fork.london ? 5n : 2n)
  const refund = counter < cap ? counter : cap
  gasUsed -= refund
  if (gasUsed < BigInt(floor)) gasUsed = BigInt(floor)
  state.addBalance(sender, (tx.gasLimit - gasUsed) * price)
  if (!free) {
    const tip = fork >= Fork.london ? price - block.baseFee : price
    state.addBalance(state.get(block.coinbase), gasUsed * tip)
  }
  return {
    // Frontier's unpaid code deposit keeps the creation but fails the transaction (its receipt, geth's eth_call).
    status: result.halt === Halt.codeStoreOutOfGas ? Status.error : result.status,
    gasUsed: Number(gasUsed),
    refund: Number(refund),
    logs: state.logs,
    output: result.output,
    created: result.created,
    halt: result.halt,
    error: result.error,
  }
}
