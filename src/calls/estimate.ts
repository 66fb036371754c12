import { Fork } from '../chain/evmFork.js'
import { TxRejectedError } from '../exec/errors.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import type { CallInput, CallOutcome } from './callInput.js'
import { type PreparedCall, prepareCall } from './callRunner.js'
import { GAS_PER_BLOB } from '../chain/blobFee.js'

/** What eth_estimateGas answers: the gas, or the outcome that made the call fail even with all the gas allowed. */
export type EstimateOutcome = { status: 'estimated'; gas: bigint } | Exclude<CallOutcome, { status: 'success' }> | { status: 'capped'; cap: bigint }

const TX_GAS = 21_000n
const CALL_STIPEND = 2_300n
/** EIP-7825: an estimate for an Osaka block never passes a transaction's cap. */
const MAX_TX_GAS = 16_777_216n
/** geth stops the search once the interval is within 1.5% of the upper bound. */
const ERROR_RATIO = 0.015

/**
 * eth_estimateGas as geth's gasestimator: the highest limit from the call's gas (else the block's), EIP-7825's cap,
 * the sender's funds and --rpc.gascap; a plain transfer tried at 21,000 first; a run with the highest limit (its
 * failure is the answer); then the gas it used and 64/63 of its peak as the first bounds of a binary search that
 * stops within 1.5%. Every run is on the same prepared state, its changes dropped after it. Null: unknown block.
 */
export function estimateGas(config: EvmConfig, input: CallInput, deadline = 0): EstimateOutcome | null {
  const call = prepareCall(config, input, deadline)
  if (call === null) return null
  const c = input.call
  const tx = call.tx
  let hi = call.ctx.env.gasLimit
  if (c.gas !== undefined && c.gas >= TX_GAS) hi = c.gas
  if (call.ctx.fork >= Fork.osaka && hi > MAX_TX_GAS) hi = MAX_TX_GAS
  const feeCap = tx.maxFeePerGas
  if (feeCap > 0n) {
    let available = call.state.get(tx.sender).balance
    if (tx.value >= available) throw new TxRejectedError('insufficient funds for transfer', 'insufficientFunds')
    available -= tx.value
    if (call.ctx.fork >= Fork.cancun && tx.blobHashes.length > 0) {
      const blobs = BigInt(tx.blobHashes.length) * GAS_PER_BLOB * tx.maxFeePerBlobGas
      if (blobs >= available) throw new TxRejectedError('insufficient funds for gas * price + value', 'insufficientFunds')
      available -= blobs
    }
    const allowance = available / feeCap
    if (hi > allowance) hi = allowance
  }
  if (hi > input.gasCap) hi = input.gasCap
  if (c.data === undefined || c.data.length === 0) {
    if (tx.to !== undefined && call.state.codeOf(call.state.get(tx.to)).length === 0) {
      const plain = attempt(call, TX_GAS)
      if (plain !== undefined && plain.status === 'success') return { status: 'estimated', gas: TX_GAS }
    }
  }
  const atHi = attempt(call, hi)
  if (atHi === undefined || (atHi.status === 'halt' && atHi.error === 'out of gas')) return { status: 'capped', cap: hi }
  if (atHi.status !== 'success') return atHi
  let lo = atHi.gasUsed - 1n
  const optimistic = ((atHi.gasUsed + atHi.gasRefund + CALL_STIPEND) * 64n) / 63n
  if (optimistic < hi) {
    if (succeeds(call, optimistic)) hi = optimistic
    else lo = optimistic
  }
  while (lo + 1n < hi) {
    if (Number(hi - lo) / Number(hi) < ERROR_RATIO) break
    let mid = lo + (hi - lo) / 2n
    if (mid > lo * 2n) mid = lo * 2n
    if (succeeds(call, mid)) hi = mid
    else lo = mid
  }
  return { status: 'estimated', gas: hi }
}

/**
 * One run at `gas`: its outcome, or undefined when the limit itself is refused (below the intrinsic gas or the
 * EIP-7623 floor) — a failure the search raises the limit for, as geth's. Other refusals are the answer, in geth's
 * words ("failed with N gas: …").
 */
function attempt(call: PreparedCall, gas: bigint): CallOutcome | undefined {
  try {
    return call.run(gas)
  } catch (e) {
    if (e instanceof TxRejectedError) {
      if (e.kind === 'intrinsicGasTooLow' || e.kind === 'gasLimitTooHigh') return undefined
      throw new TxRejectedError(`failed with ${gas} gas: ${e.message}`, e.kind)
    }
    throw e
  }
}

function succeeds(call: PreparedCall, gas: bigint): boolean {
  return attempt(call, gas)?.status === 'success'
}
