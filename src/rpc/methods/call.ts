import type { AccountOverride, BlockOverrides, CallInput, CallOutcome, CallRequest } from '../../calls/callInput.js'
import { revertReason } from '../../tracers/revertReason.js'
import type { NodeContext } from '../context.js'
import { bytesToHex, hexToBytes, toQuantity } from '../../util/hex.js'
import { ExecutionRevertedError, InvalidParamsError, LimitExceededError, ServerError } from '../errors.js'
import { headerNotFound } from '../../store/errors.js'
import type { EstimateOutcome } from '../../calls/estimate.js'
import type { SingleTask, TaskMap } from '../../workers/tasks.js'
import type { AccessListParams, BlockOverridesWire, CallObject, CallParams, EstimateParams, StateOverrides } from '../../wire/ethParams.js'
import { blockIdOf } from '../blockId.js'
import type { BlockNumberOrTagOrHash, Bytes, Quantity } from '../../wire/primitives.js'
import type { AccessListResult as AccessListResultWire } from '../../wire/results.js'
import type { AccessListResult } from '../../calls/accessList.js'

// eth_call, eth_estimateGas and eth_createAccessList (execution-apis src/eth/execute.yaml): the call object and
// overrides converted here, run in the endpoint's worker lane, and the outcome answered as geth answers it.

/** What these handlers use: the block resolved, the bounds, the serving thread's calls, the lane. */
type Ctx = Pick<NodeContext, 'chain' | 'limits' | 'pool' | 'calls'>

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const HASH = /^0x[0-9a-fA-F]{64}$/

export function callRequest(c: CallObject): CallRequest {
  if (c.input !== undefined && c.data !== undefined && c.input !== c.data) {
    throw new InvalidParamsError(`both "data" and "input" are set and not equal. Please use "input" to pass transaction call data`)
  }
  if (c.gasPrice !== undefined && (c.maxFeePerGas !== undefined || c.maxPriorityFeePerGas !== undefined)) {
    throw new InvalidParamsError('both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified')
  }
  const data = c.input ?? c.data
  const big = (q: string | undefined) => (q === undefined ? undefined : BigInt(q))
  const out: CallRequest = {}
  if (c.from !== undefined) out.from = hexToBytes(c.from)
  if (c.to !== undefined && c.to !== null) out.to = hexToBytes(c.to)
  if (c.gas !== undefined) out.gas = BigInt(c.gas)
  const fields = {
    gasPrice: big(c.gasPrice),
    maxFeePerGas: big(c.maxFeePerGas),
    maxPriorityFeePerGas: big(c.maxPriorityFeePerGas),
    maxFeePerBlobGas: big(c.maxFeePerBlobGas),
    value: big(c.value),
  }
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) (out as Record<string, unknown>)[k] = v
  if (data !== undefined) out.data = hexToBytes(data)
  if (c.accessList !== undefined)
    out.accessList = c.accessList.map((a) => ({ address: hexToBytes(a.address), storageKeys: a.storageKeys.map(hexToBytes) }))
  if (c.blobVersionedHashes !== undefined) out.blobVersionedHashes = c.blobVersionedHashes.map(hexToBytes)
  if (c.authorizationList !== undefined) {
    out.authorizationList = c.authorizationList.map((a) => ({
      chainId: BigInt(a.chainId),
      address: hexToBytes(a.address),
      nonce: BigInt(a.nonce),
      yParity: BigInt(a.yParity),
      r: BigInt(a.r),
      s: BigInt(a.s),
    }))
  }
  return out
}

function slots(record: Record<string, string>, what: string): { slot: Uint8Array; value: Uint8Array }[] {
  return Object.entries(record).map(([k, v]) => {
    if (!HASH.test(k)) throw new InvalidParamsError(`invalid ${what} key ${k.slice(0, 70)}: want 32 bytes`)
    return { slot: hexToBytes(k), value: hexToBytes(v) }
  })
}

export function stateOverrides(o: StateOverrides | null | undefined): CallInput['stateOverrides'] {
  if (o === undefined || o === null) return undefined
  return Object.entries(o).map(([address, a]) => {
    if (!ADDRESS.test(address)) throw new InvalidParamsError(`invalid address in state override: ${address.slice(0, 50)}`)
    if (a.state !== undefined && a.stateDiff !== undefined) throw new InvalidParamsError(`account ${address} has both 'state' and 'stateDiff'`)
    const override: AccountOverride = {}
    if (a.balance !== undefined) override.balance = BigInt(a.balance)
    if (a.nonce !== undefined) override.nonce = BigInt(a.nonce)
    if (a.code !== undefined) override.code = hexToBytes(a.code)
    if (a.state !== undefined) override.state = slots(a.state, 'state')
    if (a.stateDiff !== undefined) override.stateDiff = slots(a.stateDiff, 'stateDiff')
    if (a.movePrecompileToAddress !== undefined) override.movePrecompileTo = hexToBytes(a.movePrecompileToAddress)
    return { address: hexToBytes(address), override }
  })
}

export function blockOverrides(o: BlockOverridesWire | null | undefined): BlockOverrides | undefined {
  if (o === undefined || o === null) return undefined
  const out: BlockOverrides = {}
  if (o.number !== undefined) out.number = BigInt(o.number)
  if (o.time !== undefined) out.time = BigInt(o.time)
  if (o.gasLimit !== undefined) out.gasLimit = BigInt(o.gasLimit)
  if (o.feeRecipient !== undefined) out.feeRecipient = hexToBytes(o.feeRecipient)
  if (o.prevRandao !== undefined) out.prevRandao = hexToBytes(o.prevRandao)
  if (o.baseFeePerGas !== undefined) out.baseFeePerGas = BigInt(o.baseFeePerGas)
  return out
}

export function callInput(
  ctx: Pick<NodeContext, 'chain' | 'limits'>,
  call: CallObject,
  block: BlockNumberOrTagOrHash | undefined,
  state?: StateOverrides | null,
  blk?: BlockOverridesWire | null,
): CallInput {
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) throw headerNotFound()
  const input: CallInput = { blockHash: ref.hash, call: callRequest(call), gasCap: ctx.limits.gasCap }
  const so = stateOverrides(state)
  if (so !== undefined) input.stateOverrides = so
  const bo = blockOverrides(blk)
  if (bo !== undefined) input.blockOverrides = bo
  return input
}

/** A failed outcome as the error geth answers: 3 with data for a revert that carries some, -32000 otherwise. */
function failure(o: Exclude<CallOutcome, { status: 'success' }>): Error {
  if (o.status === 'revert') {
    if (o.returnData.length === 0) return new ServerError('execution reverted')
    const reason = revertReason(o.returnData)
    return new ExecutionRevertedError(reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`, bytesToHex(o.returnData))
  }
  return new ServerError(o.error)
}

/**
 * A task for the lane, when the serving thread left the call to it: the lane's admission asked here (these methods
 * are not admitted by the envelope, since most never reach the lane), -32005 when it is full.
 */
function inLane<K extends 'call' | 'estimate' | 'accessList'>(
  ctx: Pick<NodeContext, 'limits' | 'pool'>,
  task: Extract<SingleTask, { op: K }>,
): Promise<TaskMap[K]['out']> {
  if (ctx.pool.admits(1) === 0) throw new LimitExceededError()
  return ctx.pool.run(task, { timeoutMs: ctx.limits.evmTimeoutMs })
}

/** eth_call on the serving thread when it is cheap (calls/threadCalls.ts), else in the lane. */
export function call([c, block, state, blk]: CallParams, ctx: Ctx): Bytes | Promise<Bytes> {
  const input = callInput(ctx, c, block, state, blk)
  const here = ctx.calls.call(input)
  if (here !== undefined) return callAnswer(here)
  return inLane(ctx, { op: 'call', input, mode: 'call' }).then(callAnswer)
}

function callAnswer(outcome: CallOutcome | null): Bytes {
  if (outcome === null) throw headerNotFound()
  if (outcome.status !== 'success') throw failure(outcome)
  return bytesToHex(outcome.returnData)
}

export function estimateGas([c, block, state]: EstimateParams, ctx: Ctx): Quantity | Promise<Quantity> {
  const gas = estimatedGas(ctx, callInput(ctx, c, block, state))
  return typeof gas === 'bigint' ? toQuantity(gas) : gas.then(toQuantity)
}

/**
 * The estimate geth's eth_estimateGas answers, or its error: also what eth_sendTransaction and eth_fillTransaction
 * answer when their gas is left to estimate, so that a revert reaches the client with its reason and data. On the
 * serving thread when it is cheap, else in the lane.
 */
export function estimatedGas(ctx: Pick<NodeContext, 'limits' | 'pool' | 'calls'>, input: CallInput): bigint | Promise<bigint> {
  const here = ctx.calls.estimate(input)
  if (here !== undefined) return estimateAnswer(here)
  return inLane(ctx, { op: 'estimate', input }).then(estimateAnswer)
}

function estimateAnswer(outcome: EstimateOutcome | null): bigint {
  if (outcome === null) throw headerNotFound()
  if (outcome.status === 'estimated') return outcome.gas
  if (outcome.status === 'capped') throw new ServerError(`gas required exceeds allowance (${outcome.cap})`)
  throw failure(outcome)
}

/** eth_createAccessList on the serving thread when it is cheap, else in the lane. */
export function createAccessList([c, block]: AccessListParams, ctx: Ctx): AccessListResultWire | Promise<AccessListResultWire> {
  const input = callInput(ctx, c, block)
  const here = ctx.calls.accessList(input)
  if (here !== undefined) return accessListAnswer(here)
  return inLane(ctx, { op: 'accessList', input }).then(accessListAnswer)
}

function accessListAnswer(result: AccessListResult | null): AccessListResultWire {
  if (result === null) throw headerNotFound()
  return {
    accessList: result.accessList,
    gasUsed: toQuantity(result.gasUsed),
    ...(result.failure === undefined ? {} : { error: failure(result.failure).message }),
  }
}
