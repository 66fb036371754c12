import type { SimBlock, SimCallResult } from '../../calls/simulate.js'
import type { NodeContext } from '../context.js'
import { bytesToHex, hexToBytes, toQuantity } from '../../util/hex.js'
import { ErrorCode, ServerError } from '../errors.js'
import { RawJson } from '../reply.js'
import type { SimulateParams } from '../../wire/ethParams.js'
import type { SimulatedBlockResult } from '../../wire/results.js'
import { HALTS, blockOverrides, callRequest, revertReason, stateOverrides } from './call.js'
import { blockIdOf } from '../blockId.js'

// eth_simulateV1: the request converted here, the blocks built in the worker lane (calls/simulate.ts), the reply
// assembled here from the blocks' stored-format JSON and each call's result.

export async function simulateV1(
  [payload, block]: SimulateParams,
  ctx: Pick<NodeContext, 'chain' | 'limits' | 'pool'>,
): Promise<RawJson<SimulatedBlockResult[]>> {
  const ref = ctx.chain.resolve(blockIdOf(block))
  if (ref === undefined) throw new ServerError('header not found')
  const blocks: SimBlock[] = payload.blockStateCalls.map((b) => {
    const bo = blockOverrides(b.blockOverrides)
    const so = stateOverrides(b.stateOverrides)
    const withdrawals = b.blockOverrides?.withdrawals?.map((w) => ({
      index: BigInt(w.index),
      validatorIndex: BigInt(w.validatorIndex),
      address: hexToBytes(w.address),
      amount: BigInt(w.amount),
    }))
    return {
      ...(bo === undefined && withdrawals === undefined ? {} : { blockOverrides: { ...bo, ...(withdrawals === undefined ? {} : { withdrawals }) } }),
      ...(so === undefined ? {} : { stateOverrides: so }),
      calls: (b.calls ?? []).map((c) => ({ ...callRequest(c), ...(c.nonce === undefined ? {} : { nonce: BigInt(c.nonce) }) })),
    }
  })
  const input = {
    blockHash: ref.hash,
    blocks,
    validation: payload.validation === true,
    traceTransfers: payload.traceTransfers === true,
    fullTransactions: payload.returnFullTransactions === true,
    gasCap: ctx.limits.gasCap,
  }
  const outcome = await ctx.pool.run({ op: 'simulate', input }, { timeoutMs: ctx.limits.evmTimeoutMs })
  // Why a simulation stops comes as a SimulationError: errorMap gives it the spec's code.
  if (outcome === null) throw new ServerError('header not found')
  const parts: string[] = ['[']
  outcome.blocks.forEach((b, i) => {
    if (i > 0) parts.push(',')
    parts.push(b.blockJson, ',"transactions":[', b.transactions.join(','), '],"calls":[', b.calls.map(callJson).join(','), ']}')
  })
  parts.push(']')
  return RawJson.of<SimulatedBlockResult[]>(...parts)
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
  } else if (c.halt !== undefined) {
    fields.push(`"error":${JSON.stringify({ code: ErrorCode.vmError, message: HALTS[c.halt] ?? c.halt })}`)
  }
  return `{${fields.join(',')}}`
}
