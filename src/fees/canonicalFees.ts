import type { ChainSpec } from '../chain/spec.js'
import type { BlockRef } from '../store/chainReader.js'
import { HeaderView } from '../store/headerView.js'
import { equalBytes } from '../util/hex.js'
import { BlockFees, type FeeSource } from './blockFees.js'

// The fee samples of canonical blocks by number, kept in memory once worked out. Entries are found by number (what
// eth_feeHistory and the oracle ask for) without reading the canonical index: each carries its block's hash, and is
// known canonical within a *head generation* — the run of heads, each extending the last, in which the canonical
// chain below them did not change. A head that does not extend the previous one (a reorg, a rewind) starts a new
// generation, and each entry is checked against the canonical index again on its first use in it (one read; an
// entry of a block no longer canonical is replaced by its successor's samples). Bounded by blocks and by the tips
// their curves hold, oldest filled dropped first.

/** The store reads this needs (the chain store's read side). */
export interface CanonicalSource extends FeeSource {
  getLabel(label: 'head'): Uint8Array | undefined
  getNumber(hash: Uint8Array): bigint | undefined
  getCanonicalHash(number: bigint): Uint8Array | undefined
  isCanonical(number: bigint, hash: Uint8Array): boolean
}

export interface CanonicalFeesLimits {
  /** Blocks kept. */
  blocks: number
  /** Tip entries kept over all blocks' curves (each ~40 bytes). */
  tips: number
}

/** Four times the most one eth_feeHistory covers (geth's 1,024), and ~20 MB of tips at most. */
export const DEFAULT_LIMITS: CanonicalFeesLimits = { blocks: 4096, tips: 512 * 1024 }

/** How far back a new head is followed by parent hash to find the previous head before calling it a reorg. */
const EXTENSION_WALK = 64

export class CanonicalFees {
  private readonly byNumber = new Map<number, BlockFees>()
  private tipsHeld = 0
  private headHash: Uint8Array | undefined
  private headNumber = 0n
  private generation = 0
  private storeReads = 0

  constructor(
    private readonly source: CanonicalSource,
    private readonly spec: ChainSpec,
    private readonly limits: CanonicalFeesLimits = DEFAULT_LIMITS,
  ) {}

  /** The canonical head now, read from the store; a head that does not extend the last one starts a generation. */
  head(): BlockRef {
    const hash = this.source.getLabel('head')
    if (hash === undefined) throw new Error('store has no head')
    const last = this.headHash
    if (last !== undefined && equalBytes(hash, last)) return { hash: last, number: this.headNumber }
    const number = this.source.getNumber(hash)!
    if (last === undefined || !this.extends(hash, number, last)) this.generation++
    this.headHash = hash
    this.headNumber = number
    return { hash, number }
  }

  /** The generation of the head last read: equal generations, the same chain below both heads. */
  get headGeneration(): number {
    return this.generation
  }

  /** Headers and receipts read from the store so far: what tells a block read from the store from a kept one. */
  get reads(): number {
    return this.storeReads
  }

  /** Whether `hash` (at `number`) descends from `previous`, the head before it, within a short walk. */
  private extends(hash: Uint8Array, number: bigint, previous: Uint8Array): boolean {
    const steps = number - this.headNumber
    if (steps <= 0n || steps > BigInt(EXTENSION_WALK)) return false
    let at = hash
    for (let i = 0n; i < steps; i++) {
      const h = HeaderView.read(this.source, at)
      if (h === undefined) return false
      at = h.parentHash
    }
    return equalBytes(at, previous)
  }

  /** The canonical block at `number`, at most the head's (call `head()` first: the generation is the head's). */
  at(number: number): BlockFees {
    const cached = this.byNumber.get(number)
    if (cached !== undefined) {
      if (cached.checkedIn === this.generation) return cached
      if (this.source.isCanonical(BigInt(number), cached.hash)) {
        cached.checkedIn = this.generation
        return cached
      }
      this.drop(number, cached)
    }
    const n = BigInt(number)
    const hash = this.source.getCanonicalHash(n)
    if (hash === undefined) throw new Error(`no canonical block ${number}`)
    const fees = BlockFees.read(this.source, this.spec, hash, n, this.generation)
    this.storeReads++
    this.byNumber.set(number, fees)
    this.trim()
    return fees
  }

  /** A block's tips, read from its receipts on first use. */
  tipsOf(fees: BlockFees): NonNullable<BlockFees['tips']> {
    if (fees.tips !== undefined) return fees.tips
    this.storeReads += fees.loadTips(this.source)
    const added = fees.tips!.length
    if (added > 0 && this.byNumber.get(Number(fees.number)) === fees) {
      this.tipsHeld += added
      this.trim()
    }
    return fees.tips!
  }

  /** Blocks and tip entries held (tests check the bounds). */
  get size(): { blocks: number; tips: number } {
    return { blocks: this.byNumber.size, tips: this.tipsHeld }
  }

  private drop(number: number, fees: BlockFees): void {
    this.byNumber.delete(number)
    this.tipsHeld -= fees.tips?.length ?? 0
  }

  private trim(): void {
    while (this.byNumber.size > this.limits.blocks || (this.tipsHeld > this.limits.tips && this.byNumber.size > 1)) {
      const [number, fees] = this.byNumber.entries().next().value as [number, BlockFees]
      this.drop(number, fees)
    }
  }
}
