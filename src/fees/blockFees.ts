import type { ChainSpec } from '../chain/spec.js'
import { HeaderView } from '../store/headerView.js'
import { toQuantity } from '../util/hex.js'
import { GAS_PER_BLOB, type TipAndGas, TipCurve, blobBaseFee, nextBaseFee, nextExcessBlobGas } from './feeMath.js'

// One block's fee samples, worked out once from its stored header (and, when first asked, its receipts) and kept as
// the text eth_feeHistory's reply is made of: a request then copies strings instead of decoding a header, parsing
// receipts, sorting tips and printing quantities for every block it covers.

/** Where a block's samples are read from: the chain store's read side. */
export interface FeeSource {
  getHeaderRlp(hash: Uint8Array): Uint8Array | undefined
  getTxCount(hash: Uint8Array): number | undefined
  getReceiptJsonBytes(blockHash: Uint8Array, index: number): Uint8Array | undefined
}

/** The blob base fee an excess of blob gas sets, with the blob parameters of the fork at `timestamp`; undefined before Cancun. */
export function blobBaseFeeAt(spec: ChainSpec, excess: bigint | undefined, timestamp: bigint): bigint | undefined {
  const params = spec.blobParamsAt(timestamp)
  if (excess === undefined || params === undefined) return undefined
  return blobBaseFee(excess, BigInt(params.baseFeeUpdateFraction))
}

const quoted = (v: bigint): string => `"${toQuantity(v)}"`

/** The header fields that only the newest block of a history needs (the next block's fees), until they are printed. */
interface NextFeeInputs {
  number: bigint
  timestamp: bigint
  gasUsed: bigint
  gasLimit: bigint
  blobGasUsed: bigint | undefined
  excessBlobGas: bigint | undefined
}

/** A stored block's fee samples, as eth_feeHistory's reply and the tip oracle read them. */
export class BlockFees {
  /** The head generation (CanonicalFees) in which this block was last found canonical at its number. */
  checkedIn: number
  /** `"0x…",`: the base fee as an item of baseFeePerGas, comma included (the next block's always follows). */
  readonly baseFeeItem: string
  /** The gas used ratio as JSON.stringify prints it. */
  readonly gasUsedRatioText: string
  /** `"0x…",`: the blob base fee as an item of baseFeePerBlobGas, comma included. */
  readonly blobBaseFeeItem: string
  readonly blobGasUsedRatioText: string
  /** The header's gas used as a double: what the reward percentiles' shares are computed from. */
  readonly gasUsed: number
  readonly baseFee: bigint
  private next: NextFeeInputs | undefined
  private nextTexts: [baseFee: string, blobBaseFee: string] | undefined
  private curve: TipCurve | undefined
  private tipTexts: (string | undefined)[] | undefined
  private lowest: readonly bigint[] | undefined

  private constructor(
    readonly hash: Uint8Array,
    readonly number: bigint,
    h: HeaderView,
    private readonly spec: ChainSpec,
    checkedIn: number,
  ) {
    this.checkedIn = checkedIn
    this.baseFee = h.baseFee
    this.gasUsed = Number(h.gasUsed)
    this.baseFeeItem = `${quoted(h.baseFee)},`
    this.gasUsedRatioText = JSON.stringify(Number(h.gasUsed) / Number(h.gasLimit))
    this.blobBaseFeeItem = `${quoted(blobBaseFeeAt(spec, h.excessBlobGas, h.timestamp) ?? 0n)},`
    const params = spec.blobParamsAt(h.timestamp)
    const blobRatio = params === undefined || h.blobGasUsed === undefined ? 0 : Number(h.blobGasUsed) / (params.max * Number(GAS_PER_BLOB))
    this.blobGasUsedRatioText = JSON.stringify(blobRatio)
    this.next = {
      number: h.number,
      timestamp: h.timestamp,
      gasUsed: h.gasUsed,
      gasLimit: h.gasLimit,
      blobGasUsed: h.blobGasUsed,
      excessBlobGas: h.excessBlobGas,
    }
  }

  /** The samples of the stored block `hash` (throws when the store lacks its header). */
  static read(source: FeeSource, spec: ChainSpec, hash: Uint8Array, number: bigint, checkedIn: number): BlockFees {
    const h = HeaderView.read(source, hash)
    if (h === undefined) throw new Error(`block ${number} has no stored header`)
    return new BlockFees(hash, number, h, spec, checkedIn)
  }

  /** `"0x…"`: the base fee the next block will have (0 before London), for the end of baseFeePerGas. */
  nextBaseFeeText(): string {
    return this.nextFees()[0]
  }

  /** `"0x…"`: the blob base fee the next block will have (EIP-4844's estimate; 0 before Cancun). */
  nextBlobBaseFeeText(): string {
    return this.nextFees()[1]
  }

  private nextFees(): [string, string] {
    if (this.nextTexts !== undefined) return this.nextTexts
    const h = this.next!
    const base = this.spec.isActive('london', h.number + 1n, h.timestamp) ? nextBaseFee(this.baseFee, h.gasUsed, h.gasLimit) : 0n
    const params = this.spec.blobParamsAt(h.timestamp)
    const nextExcess =
      params === undefined || h.excessBlobGas === undefined ? undefined : nextExcessBlobGas(h.excessBlobGas, h.blobGasUsed ?? 0n, params.target)
    this.nextTexts = [quoted(base), quoted(blobBaseFeeAt(this.spec, nextExcess, h.timestamp) ?? 0n)]
    this.next = undefined
    return this.nextTexts
  }

  /** The block's tips, once read (`loadTips`). */
  get tips(): TipCurve | undefined {
    return this.curve
  }

  /** Reads the block's tips from its receipts (once); answers how many receipts that read. */
  loadTips(source: FeeSource): number {
    if (this.curve !== undefined) return 0
    const txs = tipsOfReceipts(source, this.hash, this.baseFee)
    this.lowest = lowestTips(txs)
    this.curve = TipCurve.of(txs)
    return txs.length
  }

  /** `"0x…"`: the tip at `index` of the loaded curve, printed on first use. */
  tipText(index: number): string {
    const texts = (this.tipTexts ??= [])
    return (texts[index] ??= quoted(this.curve!.tips[index]!))
  }

  /** The oracle's sample of the block (loaded with the tips). */
  get lowestTips(): readonly bigint[] | undefined {
    return this.lowest
  }
}

// geth's oracle samples a block's three lowest tips, ignoring those under 2 wei.
const PER_BLOCK = 3
const IGNORE_UNDER = 2n

function lowestTips(txs: readonly TipAndGas[]): bigint[] {
  const tips: bigint[] = []
  for (const t of txs) if (t.tip >= IGNORE_UNDER) tips.push(t.tip)
  tips.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return tips.slice(0, PER_BLOCK)
}

const EFFECTIVE_GAS_PRICE = Buffer.from('"effectiveGasPrice":"')
const GAS_USED = Buffer.from('"gasUsed":"')
const QUOTE = 0x22

/**
 * Each transaction's tip (effective gas price less the base fee) and gas used, from the block's stored receipts.
 * The two fields are found in the receipt's text rather than by parsing it: a receipt's logs can be most of its
 * bytes, and no other key or value of a receipt contains either key (values are hex, quantities and the logs' own
 * keys).
 */
function tipsOfReceipts(source: FeeSource, hash: Uint8Array, baseFee: bigint): TipAndGas[] {
  const count = source.getTxCount(hash) ?? 0
  const txs: TipAndGas[] = []
  for (let i = 0; i < count; i++) {
    const r = source.getReceiptJsonBytes(hash, i)!
    const json = Buffer.from(r.buffer, r.byteOffset, r.byteLength)
    const price = quantityField(json, EFFECTIVE_GAS_PRICE)
    const gas = quantityField(json, GAS_USED)
    if (price !== undefined && gas !== undefined) txs.push({ tip: price - baseFee, gas })
    else {
      // Not the layout this node writes: read it whole.
      const parsed = JSON.parse(json.toString('utf8')) as { effectiveGasPrice: string; gasUsed: string }
      txs.push({ tip: BigInt(parsed.effectiveGasPrice) - baseFee, gas: BigInt(parsed.gasUsed) })
    }
  }
  return txs
}

/** The quantity that follows `key` (which ends with the value's opening quote), or undefined without one. */
function quantityField(json: Buffer, key: Buffer): bigint | undefined {
  const at = json.indexOf(key)
  if (at < 0) return undefined
  const start = at + key.length
  const end = json.indexOf(QUOTE, start)
  if (end < 0 || json[start] !== 0x30 || json[start + 1] !== 0x78) return undefined
  return BigInt(json.toString('latin1', start, end))
}
