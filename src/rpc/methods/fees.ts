import type { NodeContext } from '../../node/context.js'
import { HeaderView } from '../../store/headerView.js'
import { toQuantity } from '../../util/hex.js'
import { InvalidParamsError } from '../errors.js'
import type { Reply } from '../reply.js'
import type { BlockSelector } from '../../store/chainReader.js'
import { setBounded } from '../../util/boundedMap.js'

// eth_maxPriorityFeePerGas and eth_gasPrice (execution-apis src/eth/fee_market.yaml) with geth's oracle: the 60th
// percentile of the three lowest tips of each of the last 20 blocks, ignoring tips under 2 wei, at most 500 gwei;
// with nothing to go on, the last answer (1 gwei at first). Served on the serving thread from stored receipts.

const BLOCKS = 20
const PER_BLOCK = 3
const PERCENTILE = 60
const IGNORE_UNDER = 2n
const MAX_TIP = 500_000_000_000n
const DEFAULT_TIP = 1_000_000_000n

/** The oracle's memory: the last answer, and each block's fee facts by hash (a block's are fixed once stored). */
export class FeeOracle {
  lastTip = DEFAULT_TIP
  readonly blockFees = new Map<string, BlockFees>()
}

/**
 * What eth_feeHistory reports of one block, and its transactions' tips ordered for the reward percentiles and the
 * tip oracle.
 */
interface BlockFees {
  header: HeaderView
  baseFee: string
  gasUsedRatio: number
  blobBaseFee: string
  blobGasUsedRatio: number
  /** Tip and gas used of each transaction, by tip ascending (read from the receipts on first use). */
  tips?: { tip: bigint; gas: bigint }[]
  /** The oracle's sample of the block: its lowest tips of at least IGNORE_UNDER, at most PER_BLOCK of them. */
  lowestTips?: bigint[]
}

/** Blocks whose fee facts are kept: five times the most one eth_feeHistory asks for (and far more than the oracle's). */
const FEE_FACTS_KEPT = 5 * 1024

/** Bigint order for sort (the default compares as strings). */
const ascending = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0)

/** The oracle's sample of a block, from the same receipts eth_feeHistory's rewards read (read once per block). */
function tipsOf(ctx: NodeContext, hash: Uint8Array): bigint[] {
  const f = blockFeesOf(ctx, hash)
  f.tips ??= tipsByGas(ctx, hash, f.header.baseFee)
  return (f.lowestTips ??= f.tips.filter((t) => t.tip >= IGNORE_UNDER).slice(0, PER_BLOCK).map((t) => t.tip))
}

/** The suggested tip per gas. */
export function suggestTip(ctx: NodeContext): bigint {
  const head = ctx.chain.headNumber()
  const samples: bigint[] = []
  for (let n = head; n >= 0n && n > head - BigInt(BLOCKS); n--) {
    const ref = ctx.chain.byNumber(n)
    if (ref === undefined) break
    samples.push(...tipsOf(ctx, ref.hash))
  }
  if (samples.length > 0) {
    samples.sort(ascending)
    const tip = samples[Math.floor(((samples.length - 1) * PERCENTILE) / 100)]!
    ctx.fees.lastTip = tip > MAX_TIP ? MAX_TIP : tip
  }
  return ctx.fees.lastTip
}

export function maxPriorityFeePerGas(_: [], ctx: NodeContext): Reply {
  return toQuantity(suggestTip(ctx))
}

/** The tip plus the head's base fee, as geth answers it. */
export function gasPrice(_: [], ctx: NodeContext): Reply {
  const head = ctx.chain.head()
  return toQuantity(suggestTip(ctx) + HeaderView.read(ctx.store, head.hash)!.baseFee)
}

const MIN_BLOB_BASE_FEE = 1n
const GAS_PER_BLOB = 131_072n

/** EIP-4844's fake_exponential: factor · e^(numerator / denominator), in integers. */
function fakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n
  let output = 0n
  let acc = factor * denominator
  while (acc > 0n) {
    output += acc
    acc = (acc * numerator) / (denominator * i)
    i++
  }
  return output / denominator
}

/** The blob base fee a header's excess blob gas sets, with the blob parameters of its fork; undefined before Cancun. */
function blobBaseFeeOf(ctx: NodeContext, excess: bigint | undefined, timestamp: bigint): bigint | undefined {
  const params = ctx.spec.blobParamsAt(timestamp)
  if (excess === undefined || params === undefined) return undefined
  return fakeExponential(MIN_BLOB_BASE_FEE, excess, BigInt(params.baseFeeUpdateFraction))
}

/** eth_baseFee: the base fee the next block will have (from the head's gas use), 0 before London. */
export function baseFee(_: [], ctx: NodeContext): Reply {
  const h = HeaderView.read(ctx.store, ctx.chain.head().hash)!
  return toQuantity(ctx.spec.isActive('london', h.number + 1n, h.timestamp) ? nextBaseFee(h.baseFee, h.gasUsed, h.gasLimit) : 0n)
}

/** eth_blobBaseFee: the blob base fee of the head block, as geth answers it. */
export function blobBaseFee(_: [], ctx: NodeContext): Reply {
  const head = HeaderView.read(ctx.store, ctx.chain.head().hash)!
  return toQuantity(blobBaseFeeOf(ctx, head.excessBlobGas, head.timestamp) ?? 0n)
}

/** EIP-1559's next base fee from a parent's gas use (elasticity 2, change denominator 8). */
function nextBaseFee(baseFee: bigint, gasUsed: bigint, gasLimit: bigint): bigint {
  const target = gasLimit / 2n
  if (gasUsed === target) return baseFee
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / target / 8n
    return baseFee + (delta > 1n ? delta : 1n)
  }
  return baseFee - (baseFee * (target - gasUsed)) / target / 8n
}

/**
 * eth_feeHistory (fee_market.yaml): for the `count` blocks up to `newest`, their base fees (and the next block's),
 * gas used ratios, blob base fees and blob gas ratios, and with `percentiles` the tips paid at those percentiles of
 * each block's gas (geth's weighting: transactions sorted by tip, each counting its gas used).
 */
export function feeHistory([count, newest, percentiles]: [string, string, number[]?], ctx: NodeContext): Reply {
  const n = Number(BigInt(count) > 1024n ? 1024n : BigInt(count))
  const head = ctx.chain.headNumber()
  const last = ctx.chain.resolve(newest as BlockSelector)
  if (n === 0 || last === undefined) return { oldestBlock: '0x0', baseFeePerGas: [], gasUsedRatio: [], baseFeePerBlobGas: [], blobGasUsedRatio: [] }
  if (percentiles !== undefined && percentiles.some((p, i) => p < 0 || p > 100 || (i > 0 && p < percentiles[i - 1]!))) {
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
    const f = blockFeesOf(ctx, ref.hash)
    lastHeader = f.header
    baseFees.push(f.baseFee)
    ratios.push(f.gasUsedRatio)
    blobFees.push(f.blobBaseFee)
    blobRatios.push(f.blobGasUsedRatio)
    if (percentiles !== undefined) rewards.push(rewardsOf(ctx, ref.hash, f, percentiles))
  }
  const h = lastHeader!
  baseFees.push(toQuantity(ctx.spec.isActive('london', h.number + 1n, h.timestamp) ? nextBaseFee(h.baseFee, h.gasUsed, h.gasLimit) : 0n))
  const params = ctx.spec.blobParamsAt(h.timestamp)
  const nextExcess =
    params === undefined || h.excessBlobGas === undefined
      ? undefined
      : (() => {
          const sum = h.excessBlobGas + (h.blobGasUsed ?? 0n)
          const target = BigInt(params.target) * GAS_PER_BLOB
          return sum < target ? 0n : sum - target
        })()
  blobFees.push(toQuantity(blobBaseFeeOf(ctx, nextExcess, h.timestamp) ?? 0n))
  return {
    oldestBlock: toQuantity(first),
    baseFeePerGas: baseFees,
    gasUsedRatio: ratios,
    baseFeePerBlobGas: blobFees,
    blobGasUsedRatio: blobRatios,
    ...(percentiles === undefined ? {} : { reward: rewards }),
  }
}

function blockFeesOf(ctx: NodeContext, hash: Uint8Array): BlockFees {
  const key = Buffer.from(hash).toString('latin1')
  const cached = ctx.fees.blockFees.get(key)
  if (cached !== undefined) return cached
  const h = HeaderView.read(ctx.store, hash)!
  const params = ctx.spec.blobParamsAt(h.timestamp)
  const f: BlockFees = {
    header: h,
    baseFee: toQuantity(h.baseFee),
    gasUsedRatio: Number(h.gasUsed) / Number(h.gasLimit),
    blobBaseFee: toQuantity(blobBaseFeeOf(ctx, h.excessBlobGas, h.timestamp) ?? 0n),
    blobGasUsedRatio: params === undefined || h.blobGasUsed === undefined ? 0 : Number(h.blobGasUsed) / (params.max * Number(GAS_PER_BLOB)),
  }
  setBounded(ctx.fees.blockFees, key, f, FEE_FACTS_KEPT)
  return f
}

/** The tips at the given percentiles of a block's gas, transactions sorted by tip (zeros for an empty block). */
function rewardsOf(ctx: NodeContext, hash: Uint8Array, f: BlockFees, percentiles: number[]): string[] {
  const h = f.header
  const txs = (f.tips ??= tipsByGas(ctx, hash, h.baseFee))
  if (txs.length === 0) return percentiles.map(() => '0x0')
  const out: string[] = []
  let i = 0
  let sum = txs[0]!.gas
  for (const p of percentiles) {
    const threshold = (Number(h.gasUsed) * p) / 100
    while (Number(sum) < threshold && i < txs.length - 1) {
      i++
      sum += txs[i]!.gas
    }
    out.push(toQuantity(txs[i]!.tip))
  }
  return out
}

function tipsByGas(ctx: NodeContext, hash: Uint8Array, baseFee: bigint): { tip: bigint; gas: bigint }[] {
  const decoder = new TextDecoder()
  const count = ctx.store.getTxCount(hash) ?? 0
  const txs: { tip: bigint; gas: bigint }[] = []
  for (let i = 0; i < count; i++) {
    const r = JSON.parse(decoder.decode(ctx.store.getReceiptJsonBytes(hash, i)!)) as { effectiveGasPrice: string; gasUsed: string }
    txs.push({ tip: BigInt(r.effectiveGasPrice) - baseFee, gas: BigInt(r.gasUsed) })
  }
  return txs.sort((a, b) => ascending(a.tip, b.tip))
}
