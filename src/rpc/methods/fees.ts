import { nextBaseFee, percentileGas } from '../../fees/feeMath.js'
import type { BlockFees } from '../../fees/blockFees.js'
import type { HeaderView } from '../../store/headerView.js'
import { toQuantity } from '../../util/hex.js'
import type { NodeContext } from '../context.js'
import { InvalidParamsError } from '../errors.js'
import { RawJson, type Result } from '../reply.js'
import type { FeeHistoryParams, NoParams } from '../../wire/ethParams.js'
import type { BlockNumberOrTag, HexOrDecimal64, Quantity } from '../../wire/primitives.js'
import type { FeeHistoryResult } from '../../wire/results.js'
import { blockIdOf } from '../blockId.js'

// The fee methods (execution-apis src/eth/fee_market.yaml): the tip oracle and the blocks' fee samples are
// src/fees' (the context's `fees`); this file turns them into replies.

type Ctx = Pick<NodeContext, 'chain' | 'store' | 'fees'>

export function maxPriorityFeePerGas(_: NoParams, ctx: Pick<NodeContext, 'fees'>): Quantity {
  return ctx.fees.tipText()
}

/** The tip plus the head's base fee, as geth answers it. */
export function gasPrice(_: NoParams, ctx: Pick<NodeContext, 'fees'>): Quantity {
  return ctx.fees.gasPriceText()
}

/** The base fee the block after `h` will have (from its gas use), 0 before London. */
function baseFeeAfter(ctx: Pick<NodeContext, 'spec'>, h: HeaderView): bigint {
  return ctx.spec.isActive('london', h.number + 1n, h.timestamp) ? nextBaseFee(h.baseFee, h.gasUsed, h.gasLimit) : 0n
}

/** eth_baseFee: the base fee the next block will have. */
export function baseFee(_: NoParams, ctx: Pick<NodeContext, 'chain' | 'store' | 'spec'>): Quantity {
  return toQuantity(baseFeeAfter(ctx, ctx.chain.headHeader()))
}

/** eth_blobBaseFee: the blob base fee of the head block, as geth answers it. */
export function blobBaseFee(_: NoParams, ctx: Ctx): Quantity {
  const head = ctx.chain.headHeader()
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
 * The number of the block `newest` names, or undefined when there is none. A number up to the head's, or the head's
 * own tag, is answered from the head just read (the canonical index holds every height up to the head); the other
 * tags are the chain reader's.
 */
function newestNumber(newest: BlockNumberOrTag, head: bigint, ctx: Pick<NodeContext, 'chain'>): bigint | undefined {
  const id = blockIdOf(newest)
  if ('number' in id && id.number <= head) return id.number
  if ('tag' in id && (id.tag === 'latest' || id.tag === 'pending')) return head
  return ctx.chain.resolve(id)?.number
}

const EMPTY_HISTORY: FeeHistoryResult = { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [], baseFeePerBlobGas: [], blobGasUsedRatio: [] }
const ZERO_REWARD = '"0x0"'

/**
 * eth_feeHistory (fee_market.yaml): for the `count` blocks up to `newest`, their base fees (and the next block's),
 * gas used ratios, blob base fees and blob gas ratios, and with `percentiles` the tips paid at those percentiles of
 * each block's gas (geth's weighting: transactions sorted by tip, each counting its gas used). The reply is written
 * as text from each block's samples, encoded when the block was first asked for (src/fees/blockFees.ts); it is the
 * text JSON.stringify gave of the object this method used to build, key order included. A history of blocks not yet
 * sampled is read in slices, the serving thread given back between them (FeeOracle.range).
 */
export function feeHistory(params: FeeHistoryParams, ctx: Ctx): Result<FeeHistoryResult> {
  return history(params, ctx, 0)
}

/** A reorg under a long cold history restarts it at most this many times; then it is read without a break. */
const HISTORY_ATTEMPTS = 3

function history([count, newest, percentiles]: FeeHistoryParams, ctx: Ctx, attempt: number): Result<FeeHistoryResult> {
  const requested = blockCountOf(count)
  const n = Number(requested > MAX_FEE_HISTORY ? MAX_FEE_HISTORY : requested)
  const head = ctx.fees.head().number
  const last = newestNumber(newest, head, ctx)
  if (n === 0 || last === undefined) return EMPTY_HISTORY
  if (percentiles?.some((p, i) => p < 0 || p > 100 || (i > 0 && p < percentiles[i - 1]!))) {
    throw new InvalidParamsError('invalid reward percentiles: must be ascending and within [0, 100]')
  }
  const end = Number(last > head ? head : last)
  const first = end - n + 1 < 0 ? 0 : end - n + 1
  // The blocks by number and the percentiles (String(number) tells every two apart but 0 and -0, which answer alike).
  const request = `${first} ${end}${percentiles === undefined ? '' : ` ${percentiles.join(' ')}`}`
  const generation = ctx.fees.headGeneration
  const kept = ctx.fees.keptHistory(request, generation)
  if (kept !== undefined) return RawJson.of<FeeHistoryResult>(kept)
  const answer = (blocks: readonly BlockFees[]): RawJson<FeeHistoryResult> => {
    const text = historyText(first, blocks, percentiles, ctx)
    ctx.fees.keepHistory(request, generation, text)
    return RawJson.of<FeeHistoryResult>(text)
  }
  const blocks = ctx.fees.range(first, end, percentiles !== undefined, attempt >= HISTORY_ATTEMPTS)
  if (Array.isArray(blocks)) return answer(blocks)
  return blocks.then((read) => (read === undefined ? history([count, newest, percentiles], ctx, attempt + 1) : answer(read)))
}

/** The reply from the blocks' samples: the text JSON.stringify gave of the object this method built before. */
function historyText(first: number, blocks: readonly BlockFees[], percentiles: number[] | undefined, ctx: Ctx): string {
  const newestFees = blocks[blocks.length - 1]!
  let s = `{"oldestBlock":"${toQuantity(first)}","baseFeePerGas":[`
  for (const b of blocks) s += b.baseFeeItem
  s += `${newestFees.nextBaseFeeText()}],"gasUsedRatio":[${blocks[0]!.gasUsedRatioText}`
  for (let i = 1; i < blocks.length; i++) s += `,${blocks[i]!.gasUsedRatioText}`
  s += '],"baseFeePerBlobGas":['
  for (const b of blocks) s += b.blobBaseFeeItem
  s += `${newestFees.nextBlobBaseFeeText()}],"blobGasUsedRatio":[${blocks[0]!.blobGasUsedRatioText}`
  for (let i = 1; i < blocks.length; i++) s += `,${blocks[i]!.blobGasUsedRatioText}`
  s += ']'
  if (percentiles !== undefined) s += `,"reward":${rewards(blocks, percentiles, ctx)}`
  return `${s}}`
}

/** The reward lists: each block's tips at the percentiles, zeros for a block without transactions. */
function rewards(blocks: readonly BlockFees[], percentiles: readonly number[], ctx: Pick<NodeContext, 'fees'>): string {
  let s = '['
  for (let k = 0; k < blocks.length; k++) {
    const b = blocks[k]!
    s += k === 0 ? '[' : ',['
    const curve = ctx.fees.tips(b)
    let i = 0
    for (let j = 0; j < percentiles.length; j++) {
      if (j > 0) s += ','
      if (curve.length === 0) s += ZERO_REWARD
      else {
        i = curve.indexAt(percentileGas(b.gasUsed, percentiles[j]!), i)
        s += b.tipText(i)
      }
    }
    s += ']'
  }
  return `${s}]`
}
