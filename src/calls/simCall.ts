import { Fork } from '../chain/evmFork.js'
import { checksumAddress } from '../crypto/checksum.js'
import { TxRejectedError } from '../evm/errors.js'
import { CallKind, type CallResult, type Message, Status } from '../evm/frame.js'
import { Halt, haltMessage } from '../evm/halts.js'
import { createAddress, type Evm } from '../evm/interpreter.js'
import type { Log } from '../evm/state.js'
import { applyTransaction, type BlockLimits, effectiveGasPrice, type EvmTransaction, intrinsicGas } from '../evm/transaction.js'
import { splitGas, wholeGas } from '../evm/wideGas.js'
import { bytesToWord, TWO_256 } from '../evm/words.js'
import { SimulationError } from './errors.js'
import { encodeSimTransaction, type SimTransaction, simMessage, simTransaction } from './simTransaction.js'
import type { SimCall } from './simulateInput.js'
import type { NumberedLog, SimLogTracer } from './transferLogs.js'

// One call of a simulated block, as geth's simulator runs it (internal/ethapi/simulate.go): the nonce and gas filled
// in (the rest of the block's gas, within what --rpc.gascap leaves the simulation), the transaction made, then the
// message applied by the state transition with geth's call rules — no EIP-3607 or EIP-7825, and no nonce checks nor
// fee without fee fields unless validating. Sponge's EVM applies it in call mode; what geth's uint64 nonces and
// uint256 balances do that bigints would not (a nonce at 2^64-1, a blob fee charged from nothing) is done here.

const CALL = { call: true } as const
const MAX_NONCE = (1n << 64n) - 1n
const ZERO_ADDRESS = new Uint8Array(20)
const NO_BYTES = new Uint8Array()

/** What the calls of one block share. */
export interface SimCallContext {
  evm: Evm
  limits: BlockLimits
  /** The header's base fee; undefined before London. */
  baseFee: bigint | undefined
  chainId: bigint
  validation: boolean
  tracer: SimLogTracer
}

/** The gas --rpc.gascap leaves the simulation's calls. */
export interface GasBudget {
  remaining: bigint
}

export interface SimCallRun {
  tx: SimTransaction
  /** The transaction's encoding and hash. */
  txBytes: Uint8Array
  hash: Uint8Array
  from: Uint8Array
  status: Status
  gasUsed: bigint
  /** geth's MaxUsedGas: the gas used before refunds, at least EIP-7623's floor. */
  maxUsedGas: bigint
  output: Uint8Array
  /** The receipt's logs. */
  logs: Log[]
  /** The reply's logs, numbered as geth's tracer numbers them. */
  replyLogs: NumberedLog[]
  /** Why the call failed other than by reverting, in geth's words. */
  error: string | undefined
}

/** Runs a call with `blockGasLeft` of the block's gas left; throws SimulationError when geth would stop there. */
export function runSimCall(ctx: SimCallContext, call: SimCall, blockGasLeft: bigint, budget: GasBudget): SimCallRun {
  const { evm } = ctx
  const state = evm.state
  const from = call.from ?? ZERO_ADDRESS
  const sender = bytesToWord(from)
  const stateNonce = state.get(sender).nonce
  const nonce = call.nonce ?? stateNonce
  let gas = call.gas ?? blockGasLeft
  if (blockGasLeft < gas) throw new SimulationError(`block gas limit reached: remaining: ${blockGasLeft}, required: ${gas}`, 'blockGasLimitReached')
  const capped = gas > budget.remaining
  if (capped) gas = budget.remaining
  const tx = simTransaction(call, nonce, gas, ctx.chainId)
  const { bytes, hash } = encodeSimTransaction(tx)
  const msg = simMessage(call, tx, sender, ctx.baseFee)

  ctx.tracer.reset()
  let run: Omit<SimCallRun, 'tx' | 'txBytes' | 'hash' | 'from' | 'replyLogs'>
  try {
    if (ctx.validation) checkAsValidating(ctx, msg, from, stateNonce)
    evm.tracer = ctx.tracer
    run = msg.to === undefined && stateNonce === MAX_NONCE ? createAtMaxNonce(ctx, msg) : apply(ctx, msg)
  } catch (e) {
    if (!(e instanceof TxRejectedError)) throw e
    // What the state transition refuses, in applyMessageWithEVM's words.
    throw new SimulationError(`err: ${e.message} (supplied gas ${gas})`, e.kind)
  } finally {
    evm.tracer = undefined
  }
  state.endTransaction()
  budget.remaining -= run.gasUsed
  const error = run.error === undefined || !capped ? run.error : `${run.error} (gas limit was capped by the RPC server's global gas cap)`
  return { ...run, error, tx, txBytes: bytes, hash, from, replyLogs: ctx.tracer.logs() }
}

/**
 * The checks geth's state transition makes of a validated message that Sponge's EVM makes of transactions only (call
 * mode skips them): the nonce, and the fees even when none are given. In geth's order and words.
 */
function checkAsValidating(ctx: SimCallContext, msg: EvmTransaction, from: Uint8Array, stateNonce: bigint): void {
  const who = checksumAddress(from)
  if (stateNonce < msg.nonce) throw new TxRejectedError(`nonce too high: address ${who}, tx: ${msg.nonce} state: ${stateNonce}`, 'nonceTooHigh')
  if (stateNonce > msg.nonce) throw new TxRejectedError(`nonce too low: address ${who}, tx: ${msg.nonce} state: ${stateNonce}`, 'nonceTooLow')
  if (stateNonce === MAX_NONCE) throw new TxRejectedError(`nonce has max value: address ${who}, nonce: ${stateNonce}`, 'nonceMax')
  const baseFee = ctx.baseFee
  if (baseFee !== undefined) {
    if (msg.maxFeePerGas < msg.maxPriorityFeePerGas)
      throw new TxRejectedError(
        `max priority fee per gas higher than max fee per gas: address ${who}, maxPriorityFeePerGas: ${msg.maxPriorityFeePerGas}, maxFeePerGas: ${msg.maxFeePerGas}`,
        'tipAboveFeeCap',
      )
    if (msg.maxFeePerGas < baseFee)
      throw new TxRejectedError(
        `max fee per gas less than block base fee: address ${who}, maxFeePerGas: ${msg.maxFeePerGas}, baseFee: ${baseFee}`,
        'feeCapTooLow',
      )
  }
  const blobBaseFee = ctx.evm.block.blobBaseFee
  if (ctx.evm.fork >= Fork.cancun && msg.blobHashes.length > 0 && msg.maxFeePerBlobGas < blobBaseFee)
    throw new TxRejectedError(
      `max fee per blob gas less than block blob gas fee: address ${who} blobGasFeeCap: ${msg.maxFeePerBlobGas}, blobBaseFee: ${blobBaseFee}`,
      'blobFeeCapTooLow',
    )
}

/** Whether geth pays the coinbase nothing for the message and touches it not (NoBaseFee with no fee fields). */
function unpaid(ctx: SimCallContext, msg: EvmTransaction): boolean {
  return !ctx.validation && msg.maxFeePerGas === 0n && msg.maxPriorityFeePerGas === 0n
}

function apply(ctx: SimCallContext, msg: EvmTransaction): Omit<SimCallRun, 'tx' | 'txBytes' | 'hash' | 'from' | 'replyLogs'> {
  const { evm } = ctx
  const state = evm.state
  const o = applyTransaction(evm, msg, ctx.limits, CALL)
  const sender = state.get(msg.sender)
  // geth's nonce is a uint64: a call from an account at 2^64-1 moves it on to 0.
  if (sender.nonce > MAX_NONCE) state.setNonce(sender, sender.nonce & MAX_NONCE)
  // And its balance a uint256: a blob fee charged without a fee cap to check it (NoBaseFee) may take it below zero.
  if (sender.balance < 0n) state.setBalance(sender, sender.balance + TWO_256)
  // Validating, geth pays the coinbase even a fee of zero: the touch that deletes it if empty (EIP-161).
  if (ctx.validation && msg.maxFeePerGas === 0n && msg.maxPriorityFeePerGas === 0n) state.touch(state.get(evm.block.coinbase))
  const end = ctx.tracer.callEnd
  const before = end === undefined ? BigInt(o.gasUsed + o.refund) : msg.gasLimit - wholeGas(end.gasLeft, end.gasBase)
  return {
    status: o.status,
    gasUsed: BigInt(o.gasUsed),
    maxUsedGas: peak(before, msg, evm.fork),
    output: o.output,
    logs: o.logs,
    error: o.status === Status.error ? (o.error ?? 'execution failed') : undefined,
  }
}

/** geth's peak gas use: the gas used before refunds, raised to EIP-7623's floor (Prague on). */
function peak(beforeRefunds: bigint, msg: EvmTransaction, fork: Fork): bigint {
  const floor = BigInt(intrinsicGas(msg, fork).floor)
  return beforeRefunds > floor ? beforeRefunds : floor
}

/**
 * A creation from an account whose nonce is 2^64-1: geth refuses it in the creation's frame (ErrNonceUintOverflow),
 * giving its gas back, where Sponge's EVM would create at the nonce 2^64. The state transition's checks are those of
 * the message as the EVM applies it (its changes undone); then geth's outcome: the intrinsic gas (or the floor) paid,
 * the nonce and value left, the frame failed — as the tracer sees it too.
 */
function createAtMaxNonce(ctx: SimCallContext, msg: EvmTransaction): Omit<SimCallRun, 'tx' | 'txBytes' | 'hash' | 'from' | 'replyLogs'> {
  const { evm } = ctx
  const state = evm.state
  const tracer = evm.tracer
  const checkpoint = state.checkpoint()
  evm.tracer = undefined
  try {
    applyTransaction(evm, msg, ctx.limits, CALL)
  } finally {
    state.revertTo(checkpoint)
    evm.tracer = tracer
  }
  const { gas: intrinsic, floor } = intrinsicGas(msg, evm.fork)
  const gasUsed = BigInt(Math.max(intrinsic, floor))
  const price = effectiveGasPrice(msg, evm.block.baseFee, evm.fork)
  state.subBalance(state.get(msg.sender), gasUsed * price)
  if (!unpaid(ctx, msg)) {
    const tip = evm.fork >= Fork.london ? price - evm.block.baseFee : price
    state.addBalance(state.get(evm.block.coinbase), gasUsed * tip)
  }
  const left = splitGas(msg.gasLimit - BigInt(intrinsic))
  const frame: Message = {
    kind: CallKind.create,
    caller: msg.sender,
    to: createAddress(msg.sender, MAX_NONCE),
    codeAddress: createAddress(msg.sender, MAX_NONCE),
    value: msg.value,
    apparentValue: msg.value,
    input: msg.data,
    gas: left.gas,
    gasBase: left.base,
    isStatic: false,
    depth: 0,
  }
  const error = haltMessage(Halt.nonceOverflow)
  const result: CallResult = {
    status: Status.error,
    gasLeft: left.gas,
    gasBase: left.base,
    output: NO_BYTES,
    halt: Halt.nonceOverflow,
    error,
    created: undefined,
  }
  tracer?.onEnter?.(frame)
  tracer?.onExit?.(frame, result)
  return { status: Status.error, gasUsed, maxUsedGas: gasUsed, output: NO_BYTES, logs: [], error }
}
