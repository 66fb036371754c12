import type { ChainSpec } from '../chain/spec.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'
import { HeaderView } from '../store/headerView.js'
import { setBounded } from '../util/boundedMap.js'
import { GAS_PER_BLOB, type TipAndGas, ascending, blobBaseFee } from './feeMath.js'

// eth_maxPriorityFeePerGas and eth_gasPrice (execution-apis src/eth/fee_market.yaml) with geth's oracle: the 60th
// percentile of the three lowest tips of each of the last 20 blocks, ignoring tips under 2 wei, at most 500 gwei;
// with nothing to go on, the last answer (1 gwei at first). Served on the serving thread from stored receipts.

const BLOCKS = 20
const PER_BLOCK = 3
const PERCENTILE = 60
const IGNORE_UNDER = 2n
const MAX_TIP = 500_000_000_000n
const DEFAULT_TIP = 1_000_000_000n

/** Blocks whose fee facts are kept: five times the most one eth_feeHistory asks for (and far more than the oracle's). */
const FEE_FACTS_KEPT = 5 * 1024

/**
 * What eth_feeHistory reports of one block, and its transactions' tips ordered for the reward percentiles and the
 * tip oracle.
 */
export interface BlockFees {
  header: HeaderView
  baseFee: bigint
  gasUsedRatio: number
  blobBaseFee: bigint
  blobGasUsedRatio: number
  /** Tip and gas used of each transaction, by tip ascending (read from the receipts on first use). */
  tips?: TipAndGas[]
  /** The oracle's sample of the block: its lowest tips of at least IGNORE_UNDER, at most PER_BLOCK of them. */
  lowestTips?: bigint[]
}

/** The oracle's memory: the last answer, and each block's fee facts by hash (a block's are fixed once stored). */
export class FeeOracle {
  private lastTip = DEFAULT_TIP
  private readonly facts = new Map<string, BlockFees>()
  private readonly decoder = new TextDecoder()

  constructor(
    private readonly spec: ChainSpec,
    private readonly chain: ChainReader,
    private readonly store: ChainStore,
  ) {}

  /** The suggested tip per gas. */
  suggestTip(): bigint {
    const head = this.chain.headNumber()
    const samples: bigint[] = []
    for (let n = head; n >= 0n && n > head - BigInt(BLOCKS); n--) {
      const ref = this.chain.byNumber(n)
      if (ref === undefined) break
      samples.push(...this.lowestTipsOf(ref.hash))
    }
    if (samples.length > 0) {
      samples.sort(ascending)
      const tip = samples[Math.floor(((samples.length - 1) * PERCENTILE) / 100)]!
      this.lastTip = tip > MAX_TIP ? MAX_TIP : tip
    }
    return this.lastTip
  }

  /** The blob base fee a header's excess blob gas sets, with the blob parameters of its fork; undefined before Cancun. */
  blobBaseFeeAt(excess: bigint | undefined, timestamp: bigint): bigint | undefined {
    const params = this.spec.blobParamsAt(timestamp)
    if (excess === undefined || params === undefined) return undefined
    return blobBaseFee(excess, BigInt(params.baseFeeUpdateFraction))
  }

  /** A stored block's fee facts (read once per block). */
  blockFees(hash: Uint8Array): BlockFees {
    const key = Buffer.from(hash).toString('latin1')
    const cached = this.facts.get(key)
    if (cached !== undefined) return cached
    const h = HeaderView.read(this.store, hash)!
    const params = this.spec.blobParamsAt(h.timestamp)
    const f: BlockFees = {
      header: h,
      baseFee: h.baseFee,
      gasUsedRatio: Number(h.gasUsed) / Number(h.gasLimit),
      blobBaseFee: this.blobBaseFeeAt(h.excessBlobGas, h.timestamp) ?? 0n,
      blobGasUsedRatio: params === undefined || h.blobGasUsed === undefined ? 0 : Number(h.blobGasUsed) / (params.max * Number(GAS_PER_BLOB)),
    }
    setBounded(this.facts, key, f, FEE_FACTS_KEPT)
    return f
  }

  /** A block's transactions' tips and gas, by tip ascending (from the same receipts eth_feeHistory's rewards read). */
  tipsOf(hash: Uint8Array): TipAndGas[] {
    const f = this.blockFees(hash)
    return (f.tips ??= this.tipsByGas(hash, f.header.baseFee))
  }

  private lowestTipsOf(hash: Uint8Array): bigint[] {
    const f = this.blockFees(hash)
    return (f.lowestTips ??= this.tipsOf(hash)
      .filter((t) => t.tip >= IGNORE_UNDER)
      .slice(0, PER_BLOCK)
      .map((t) => t.tip))
  }

  private tipsByGas(hash: Uint8Array, baseFee: bigint): TipAndGas[] {
    const count = this.store.getTxCount(hash) ?? 0
    const txs: TipAndGas[] = []
    for (let i = 0; i < count; i++) {
      const r = JSON.parse(this.decoder.decode(this.store.getReceiptJsonBytes(hash, i)!)) as { effectiveGasPrice: string; gasUsed: string }
      txs.push({ tip: BigInt(r.effectiveGasPrice) - baseFee, gas: BigInt(r.gasUsed) })
    }
    return txs.sort((a, b) => ascending(a.tip, b.tip))
  }
}
