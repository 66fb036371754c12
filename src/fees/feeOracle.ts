import type { ChainSpec } from '../chain/spec.js'
import type { BlockRef } from '../store/chainReader.js'
import { equalBytes, toQuantity } from '../util/hex.js'
import { type BlockFees, blobBaseFeeAt } from './blockFees.js'
import { CanonicalFees, type CanonicalFeesLimits, type CanonicalSource, DEFAULT_LIMITS } from './canonicalFees.js'
import { ascending, type TipCurve } from './feeMath.js'

// eth_maxPriorityFeePerGas and eth_gasPrice (execution-apis src/eth/fee_market.yaml) with geth's oracle: the 60th
// percentile of the three lowest tips of each of the last 20 blocks, ignoring tips under 2 wei, at most 500 gwei;
// with nothing to go on, the last answer (1 gwei at first). As geth's, the answer is worked out once per head: asked
// again at the same head it is the same, since the samples are the same and an answer made without samples is the
// last one. Served on the serving thread from the blocks' samples (canonicalFees.ts), which eth_feeHistory shares.

const BLOCKS = 20
const PERCENTILE = 60
const MAX_TIP = 500_000_000_000n
const DEFAULT_TIP = 1_000_000_000n

/** The oracle's answer at one head, and the replies made of it. */
interface Suggestion {
  head: Uint8Array
  tip: bigint
  tipText: string
  gasPriceText: string
}

/** The fee methods' memory: the canonical blocks' samples and the oracle's last answer. */
export class FeeOracle {
  private lastTip = DEFAULT_TIP
  private suggestion: Suggestion | undefined
  private readonly blocks: CanonicalFees

  constructor(
    private readonly spec: ChainSpec,
    store: CanonicalSource,
    limits: CanonicalFeesLimits = DEFAULT_LIMITS,
  ) {
    this.blocks = new CanonicalFees(store, spec, limits)
  }

  /** The canonical head now (read once per request; the blocks' samples are checked against it). */
  head(): BlockRef {
    return this.blocks.head()
  }

  /** The samples of the canonical block `number`, at most the head's (after `head()`). */
  block(number: number): BlockFees {
    return this.blocks.at(number)
  }

  /** A block's tips, for the reward percentiles. */
  tips(block: BlockFees): TipCurve {
    return this.blocks.tipsOf(block)
  }

  /** The suggested tip per gas. */
  suggestTip(): bigint {
    return this.suggest().tip
  }

  /** eth_maxPriorityFeePerGas's reply: the suggested tip as a quantity. */
  tipText(): string {
    return this.suggest().tipText
  }

  /** eth_gasPrice's reply: the suggested tip plus the head's base fee, as geth answers it. */
  gasPriceText(): string {
    return this.suggest().gasPriceText
  }

  /** The blob base fee a header's excess blob gas sets, with the blob parameters of its fork; undefined before Cancun. */
  blobBaseFeeAt(excess: bigint | undefined, timestamp: bigint): bigint | undefined {
    return blobBaseFeeAt(this.spec, excess, timestamp)
  }

  /** Memory held (tests check its bounds). */
  get size(): { blocks: number; tips: number } {
    return this.blocks.size
  }

  private suggest(): Suggestion {
    const head = this.blocks.head()
    const s = this.suggestion
    if (s !== undefined && equalBytes(s.head, head.hash)) return s
    const samples: bigint[] = []
    const top = Number(head.number)
    for (let n = top; n >= 0 && n > top - BLOCKS; n--) {
      const b = this.blocks.at(n)
      this.blocks.tipsOf(b)
      samples.push(...b.lowestTips!)
    }
    if (samples.length > 0) {
      samples.sort(ascending)
      const tip = samples[Math.floor(((samples.length - 1) * PERCENTILE) / 100)]!
      this.lastTip = tip > MAX_TIP ? MAX_TIP : tip
    }
    const tip = this.lastTip
    const next: Suggestion = {
      head: head.hash,
      tip,
      tipText: toQuantity(tip),
      gasPriceText: toQuantity(tip + this.blocks.at(top).baseFee),
    }
    this.suggestion = next
    return next
  }
}
