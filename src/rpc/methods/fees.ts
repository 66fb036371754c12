import type { NodeContext } from '../../node/context.js'
import { HeaderView } from '../../store/headerView.js'
import { toQuantity } from '../../util/hex.js'
import type { Reply } from '../reply.js'

// eth_maxPriorityFeePerGas and eth_gasPrice (execution-apis src/eth/fee_market.yaml) with geth's oracle: the 60th
// percentile of the three lowest tips of each of the last 20 blocks, ignoring tips under 2 wei, at most 500 gwei;
// with nothing to go on, the last answer (1 gwei at first). Served on the serving thread from stored receipts.

const BLOCKS = 20
const PER_BLOCK = 3
const PERCENTILE = 60
const IGNORE_UNDER = 2n
const MAX_TIP = 500_000_000_000n
const DEFAULT_TIP = 1_000_000_000n

/** The oracle's memory: the last answer, and each recent block's lowest tips (blocks do not change). */
export class FeeOracle {
  lastTip = DEFAULT_TIP
  readonly lowestTips = new Map<string, bigint[]>()
}

function tipsOf(ctx: NodeContext, hash: Uint8Array, baseFee: bigint): bigint[] {
  const lowestTips = ctx.fees.lowestTips
  const key = Buffer.from(hash).toString('hex')
  const cached = lowestTips.get(key)
  if (cached !== undefined) return cached
  const decoder = new TextDecoder()
  const tips: bigint[] = []
  const count = ctx.store.getTxCount(hash) ?? 0
  for (let i = 0; i < count; i++) {
    const r = JSON.parse(decoder.decode(ctx.store.getReceiptJsonBytes(hash, i)!)) as { effectiveGasPrice: string }
    const tip = BigInt(r.effectiveGasPrice) - baseFee
    if (tip >= IGNORE_UNDER) tips.push(tip)
  }
  tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const out = tips.slice(0, PER_BLOCK)
  lowestTips.set(key, out)
  if (lowestTips.size > 4 * BLOCKS) lowestTips.delete(lowestTips.keys().next().value!)
  return out
}

/** The suggested tip per gas. */
export function suggestTip(ctx: NodeContext): bigint {
  const head = ctx.chain.headNumber()
  const samples: bigint[] = []
  for (let n = head; n >= 0n && n > head - BigInt(BLOCKS); n--) {
    const ref = ctx.chain.byNumber(n)
    if (ref === undefined) break
    samples.push(...tipsOf(ctx, ref.hash, HeaderView.read(ctx.store, ref.hash)!.baseFee))
  }
  if (samples.length > 0) {
    samples.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
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
