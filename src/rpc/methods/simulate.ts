import { SimulationError } from '../../calls/errors.js'
import { MAX_BLOCKS } from '../../calls/simChain.js'
import type { SimBlock, SimCallResult, SimulateInput } from '../../calls/simulateInput.js'
import type { NodeContext } from '../context.js'
import { bytesToHex, hexToBytes, toQuantity } from '../../util/hex.js'
import { ErrorCode, InvalidParamsError } from '../errors.js'
import { RawJson } from '../reply.js'
import type { SimulateParams } from '../../wire/ethParams.js'
import type { SimulatedBlockResult } from '../../wire/results.js'
import { revertReason } from '../../tracers/revertReason.js'
import { blockOverrides, callRequest, stateOverrides } from './call.js'
import { blockIdOf } from '../blockId.js'
import { headerNotFound } from '../../store/errors.js'

// eth_simulateV1: the request converted and held to geth's limits here, the blocks built in the worker lane
// (calls/simulate.ts), the reply assembled here from the blocks' JSON and each call's result.

/** geth's maxSimulateCallsPerBlock and maxSimulateTotalCalls. */
const MAX_CALLS_PER_BLOCK = 5000
const MAX_CALLS = 10_000
/** geth reads a nonce as a uint64: a larger one does not decode. */
const MAX_NONCE = (1n << 64n) - 1n

export async function simulateV1(
  [payload, block]: SimulateParams,
  ctx: Pick<NodeContext, 'chain' | 'limits' | 'pool'>,
): Promise<RawJson<SimulatedBlockResult[]>> {
  checkLimits(payload.blockStateCalls)
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) throw headerNotFound()
  const blocks: SimBlock[] = payload.blockStateCalls.map((b) => {
    const bo = blockOverrides(b.blockOverrides)
    const so = stateOverrides(b.stateOverrides)
    for (const o of so ?? []) if (o.override.nonce !== undefined) uint64(o.override.nonce, 'nonce')
    const wire = b.blockOverrides
    const withdrawals = wire?.withdrawals?.map((w) => ({
      index: BigInt(w.index),
      validatorIndex: BigInt(w.validatorIndex),
      address: hexToBytes(w.address),
      amount: BigInt(w.amount),
    }))
    const extra = {
      ...(wire?.blobBaseFee === undefined ? {} : { blobBaseFee: BigInt(wire.blobBaseFee) }),
      ...(withdrawals === undefined ? {} : { withdrawals }),
    }
    const overridden = bo !== undefined || Object.keys(extra).length > 0
    return {
      ...(overridden ? { blockOverrides: { ...bo, ...extra } } : {}),
      ...(so === undefined ? {} : { stateOverrides: so }),
      calls: (b.calls ?? []).map((c) => ({ ...callRequest(c), ...(c.nonce === undefined ? {} : { nonce: uint64(BigInt(c.nonce), 'nonce') }) })),
    }
  })
  const input: SimulateInput = {
    blockHash: ref.hash,
    blocks,
    validation: payload.validation === true,
    traceTransfers: payload.traceTransfers === true,
    fullTransactions: payload.returnFullTransactions === true,
    gasCap: ctx.limits.gasCap,
  }
  const outcome = await ctx.pool.run({ op: 'simulate', input }, { timeoutMs: ctx.limits.evmTimeoutMs })
  // Why a simulation stops comes as a SimulationError: errorMap gives it the spec's code.
  if (outcome === null) throw headerNotFound()
  const parts: string[] = ['[']
  outcome.blocks.forEach((b, i) => {
    if (i > 0) parts.push(',')
    parts.push(b.blockJson, ',"transactions":[', b.transactions.join(','), '],"calls":[', b.calls.map(callJson).join(','), ']}')
  })
  parts.push(']')
  return RawJson.of<SimulatedBlockResult[]>(...parts)
}

/** What geth's SimulateV1 refuses before looking at the chain: no blocks, or more blocks or calls than it runs. */
function checkLimits(blocks: SimulateParams[0]['blockStateCalls']): void {
  if (blocks.length === 0) throw new InvalidParamsError('empty input')
  if (blocks.length > Number(MAX_BLOCKS)) throw new SimulationError('too many blocks', 'tooManyBlocks')
  let total = 0
  for (const b of blocks) {
    const n = b.calls?.length ?? 0
    if (n > MAX_CALLS_PER_BLOCK) throw new SimulationError(`too many calls in block: ${n} > ${MAX_CALLS_PER_BLOCK}`, 'tooManyBlocks')
    total += n
    if (total > MAX_CALLS) throw new SimulationError(`too many calls: ${total} > ${MAX_CALLS}`, 'tooManyBlocks')
  }
}

function uint64(v: bigint, what: string): bigint {
  if (v > MAX_NONCE) throw new InvalidParamsError(`invalid ${what} 0x${v.toString(16)}: hex number > 64 bits`)
  return v
}

function callJson(c: SimCallResult): string {
  const fields = [
    `"returnData":"${bytesToHex(c.returnData)}"`,
    `"logs":[${c.logs.join(',')}]`,
    `"gasUsed":"${toQuantity(c.gasUsed)}"`,
    `"maxUsedGas":"${toQuantity(c.maxUsedGas)}"`,
    `"status":"${toQuantity(c.status)}"`,
  ]
  if (c.revert !== undefined) {
    const reason = revertReason(c.revert)
    const message = reason === undefined ? 'execution reverted' : `execution reverted: ${reason}`
    fields.push(`"error":${JSON.stringify({ code: ErrorCode.executionReverted, message, data: bytesToHex(c.revert) })}`)
  } else if (c.error !== undefined) {
    fields.push(`"error":${JSON.stringify({ code: ErrorCode.vmError, message: c.error })}`)
  }
  return `{${fields.join(',')}}`
}
