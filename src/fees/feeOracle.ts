import type { ChainSpec } from '../chain/spec.js'
import type { BlockRef } from '../store/chainReader.js'
import { type Hex, equalBytes, toQuantity } from '../util/hex.js'
import { type BlockFees, blobBaseFeeAt } from './blockFees.js'
import { CanonicalFees, type CanonicalFeesLimits, type CanonicalSource, DEFAULT_LIMITS } from './canonicalFees.js'
import { ascending, type TipCurve } from './feeMath.js'
import { DEFAULT_MEMO_LIMITS, ReplyMemo, type ReplyMemoLimits } from './replyMemo.js'

// eth_maxPriorityFeePerGas and eth_gasPrice (execution-apis src/eth/fee_market.yaml) with geth's oracle: the 60th
// percentile of the three lowest tips of each of the last 20 blocks, ignoring tips under 2 wei, at most 500 gwei;
// with nothing to go on, the last answer (1 gwei at first). As geth's, the answer is worked out once per head: asked
// again at the same head it is the same, since the samples are the same and an answer made without samples is the
// last one. Served on the serving thread from the blocks' samples (canonicalFees.ts), which eth_feeHistory shares.

const BLOCKS = 20
/**
 * How long a range reads blocks from the store before giving the serving thread back, in ms: ~200 blocks' headers,
 * or ~800 receipts, here (a header ~10 µs with its canonical hash, a receipt's tip and gas ~2.3 µs).
 */
const SLICE_MS = 2
const PERCENTILE = 60
const MAX_TIP = 500_000_000_000n
const DEFAULT_TIP = 1_000_000_000n

/** The oracle's answer at one head, and the replies made of it. */
interface Suggestion {
  head: Uint8Array
  tip: bigint
  tipText: Hex
  gasPriceText: Hex
}

export interface FeeOracleLimits extends CanonicalFeesLimits {
  /** How long (ms) a range reads blocks from the store before giving the serving thread back (0: after each block). */
  sliceMs: number
  /** eth_feeHistory's replies kept. */
  memo: ReplyMemoLimits
}

/** The fee methods' memory: the canonical blocks' samples, eth_feeHistory's recent replies and the oracle's last answer. */
export class FeeOracle {
  private lastTip = DEFAULT_TIP
  private suggestion: Suggestion | undefined
  private readonly blocks: CanonicalFees
  private readonly sliceMs: number
  private readonly replies: ReplyMemo

  constructor(
    private readonly spec: ChainSpec,
    store: CanonicalSource,
    limits: Partial<FeeOracleLimits> = {},
  ) {
    this.blocks = new CanonicalFees(store, spec, { ...DEFAULT_LIMITS, ...limits })
    this.sliceMs = limits.sliceMs ?? SLICE_MS
    this.replies = new ReplyMemo(limits.memo ?? DEFAULT_MEMO_LIMITS)
  }

  /** The canonical head now (read once per request; the blocks' samples are checked against it). */
  head(): BlockRef {
    return this.blocks.head()
  }

  /** The head generation of the head last read (`head()`): the same chain below heads of one generation. */
  get headGeneration(): number {
    return this.blocks.headGeneration
  }

  /** eth_feeHistory's reply to `request` (its blocks named by number) kept in `generation`, if any. */
  keptHistory(request: string, generation: number): string | undefined {
    return this.replies.get(request, generation)
  }

  /** Keeps eth_feeHistory's reply to `request`, made from the chain of `generation`. */
  keepHistory(request: string, generation: number, text: string): void {
    this.replies.set(request, generation, text)
  }

  /** The samples of the canonical block `number`, at most the head's (after `head()`). */
  block(number: number): BlockFees {
    return this.blocks.at(number)
  }

  /**
   * The samples of the canonical blocks `first`…`end` (at most the head's, after `head()`), their tips loaded when
   * `withTips`. Kept blocks cost a lookup each, and a range of them is answered at once; a range whose reading
   * from the store takes longer than `sliceMs` is read in slices of that long, the thread given back between them
   * (`sync` reads it whole; a block's own receipts are read in one go). A promise then: of the blocks, or of
   * undefined when the canonical chain changed below the head meanwhile (the caller starts again from the new head).
   */
  range(first: number, end: number, withTips: boolean, sync = false): BlockFees[] | Promise<BlockFees[] | undefined> {
    const out: BlockFees[] = []
    const generation = this.blocks.headGeneration
    const fill = (from: number): number => {
      const until = performance.now() + this.sliceMs
      for (let b = from; b <= end; b++) {
        const reads = this.blocks.reads
        const fees = this.blocks.at(b)
        if (withTips) this.blocks.tipsOf(fees)
        out.push(fees)
        // The clock is read only after blocks that were read from the store: kept ones cost a lookup.
        if (!sync && b < end && this.blocks.reads !== reads && performance.now() >= until) return b + 1
      }
      return end + 1
    }
    let next = fill(first)
    if (next > end) return out
    return (async () => {
      while (next <= end) {
        await new Promise<void>((resolve) => setImmediate(resolve))
        this.blocks.head()
        if (this.blocks.headGeneration !== generation) return undefined
        next = fill(next)
      }
      return out
    })()
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
  tipText(): Hex {
    return this.suggest().tipText
  }

  /** eth_gasPrice's reply: the suggested tip plus the head's base fee, as geth answers it. */
  gasPriceText(): Hex {
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
