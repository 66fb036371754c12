import { nextBaseFee, nextExcessBlobGas, rewardPercentiles } from '../../fees/feeMath.js'
import { HeaderView } from '../../store/headerView.js'
import { toQuantity } from '../../util/hex.js'
import type { NodeContext } from '../context.js'
import { InvalidParamsError } from '../errors.js'
import type { FeeHistoryParams, NoParams } from '../../wire/ethParams.js'
import type { HexOrDecimal64, Quantity } from '../../wire/primitives.js'
import type { FeeHistoryResult } from '../../wire/results.js'
import { blockIdOf } from '../blockId.js'

// The fee methods (execution-apis src/eth/fee_market.yaml): the tip oracle and the fee facts of stored blocks are
// src/fees' (the oracle is the context's `fees`); this file turns them into replies.

type Ctx = Pick<NodeContext, 'chain' | 'store' | 'fees'>

export function maxPriorityFeePerGas(_: NoParams, ctx: Pick<NodeContext, 'fees'>): Quantity {
  return toQuantity(ctx.fees.suggestTip())
}

/** The tip plus the head's base fee, as geth answers it. */
export function gasPrice(_: NoParams, ctx: Ctx): Quantity {
  const head = ctx.chain.head()
  return toQuantity(ctx.fees.suggestTip() + HeaderView.read(ctx.store, head.hash)!.baseFee)
}

/** The base fee the block after `h` will have (from its gas use), 0 before London. */
function baseFeeAfter(ctx: Pick<NodeContext, 'spec'>, h: HeaderView): bigint {
  return ctx.spec.isActive('london', h.number + 1n, h.timestamp) ? nextBaseFee(h.baseFee, h.gasUsed, h.gasLimit) : 0n
}

/** eth_baseFee: the base fee the next block will have. */
export function baseFee(_: NoParams, ctx: Pick<NodeContext, 'chain' | 'store' | 'spec'>): Quantity {
  return toQuantity(baseFeeAfter(ctx, HeaderView.read(ctx.store, ctx.chain.head().hash)!))
}

/** eth_blobBaseFee: the blob base fee of the head block, as geth answers it. */
export function blobBaseFee(_: NoParams, ctx: Ctx): Quantity {
  const head = HeaderView.read(ctx.store, ctx.chain.head().hash)!
  return toQuantity(ctx.fees.blobBaseFeeAt(head.excessBlobGas, head.timestamp) ?? 0n)
}

/** geth's maxFeeHistory: a longer history is cut to this many blocks, not refused. */
const MAX_FEE_HISTORY = 1024n
const MAX_UINT64 = (1n << 64n) - 1n

/** The block count as geth's ParseUint64 reads it; the pattern let through only digits, so BigInt cannot throw. */
function blockCountOf(count: HexOrDecimal64): bigint {
  const v = typeof count === 'number' ? BigInt(count) : count === '' ? 0n : BigInt(count.replace(/^0X/, '0x'))
  if (v > MAX_UINT64) throw new InvalidParamsError(`invalid argument 0: invalid hex or decimal integer ${JSON.stringify(count)}`)
  return v
}

/**
 * eth_feeHistory (fee_market.yaml): for the `count` blocks up to `newest`, their base fees (and the next block's),
 * gas used ratios, blob base fees and blob gas ratios, and with `percentiles` the tips paid at those percentiles of
 * each block's gas (geth's weighting: transactions sorted by tip, each counting its gas used).
 */
export function feeHistory([count, newest, percentiles]: FeeHistoryParams, ctx: Ctx & Pick<NodeContext, 'spec'>): FeeHistoryResult {
  const requested = blockCountOf(count)
  const n = Number(requested > MAX_FEE_HISTORY ? MAX_FEE_HISTORY : requested)
  const head = ctx.chain.headNumber()
  const last = ctx.chain.resolve(blockIdOf(newest))
  if (n === 0 || last === undefined) return { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [], baseFeePerBlobGas: [], blobGasUsedRatio: [] }
  if (percentiles?.some((p, i) => p < 0 || p > 100 || (i > 0 && p < percentiles[i - 1]!))) {
    throw new InvalidParamsError('invalid reward percentiles: must be ascending and within [0, 100]')
  }
  const end = last.number > head ? head : last.number
  const first = end - BigInt(n) + 1n < 0n ? 0n : end - BigInt(n) + 1n
  const baseFees: string[] = []
  const ratios: number[] = []
  const blobFees: string[] = []
  const blobRatios: number[] = []
  const rewards: string[][] = []
  let lastHeader: HeaderView | undefined
  for (let b = first; b <= end; b++) {
    const ref = ctx.chain.byNumber(b)!
    const f = ctx.fees.blockFees(ref.hash)
    lastHeader = f.header
    baseFees.push(toQuantity(f.baseFee))
    ratios.push(f.gasUsedRatio)
    blobFees.push(toQuantity(f.blobBaseFee))
    blobRatios.push(f.blobGasUsedRatio)
    if (percentiles !== undefined) rewards.push(rewardPercentiles(ctx.fees.tipsOf(ref.hash), f.header.gasUsed, percentiles).map(toQuantity))
  }
  const h = lastHeader!
  baseFees.push(toQuantity(baseFeeAfter(ctx, h)))
  const params = ctx.spec.blobParamsAt(h.timestamp)
  const nextExcess =
    params === undefined || h.excessBlobGas === undefined ? undefined : nextExcessBlobGas(h.excessBlobGas, h.blobGasUsed ?? 0n, params.target)
  blobFees.push(toQuantity(ctx.fees.blobBaseFeeAt(nextExcess, h.timestamp) ?? 0n))
  return {
    oldestBlock: toQuantity(first),
    baseFeePerGas: baseFees,
    gasUsedRatio: ratios,
    baseFeePerBlobGas: blobFees,
    blobGasUsedRatio: blobRatios,
    ...(percentiles === undefined ? {} : { reward: rewards }),
  }
}
