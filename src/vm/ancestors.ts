import { HeaderView } from '../store/headerView.js'
import type { ChainStore } from '../store/chainStore.js'
import { equalBytes } from '../util/hex.js'

/**
 * The chain as the EVM sees it while executing a block: BLOCKHASH(n) answers from the ancestors of the block's
 * parent, which need not be canonical (newPayload executes side branches too).
 */
export class AncestorView {
  private readonly byNumber = new Map<bigint, Uint8Array>()

  constructor(
    private readonly store: ChainStore,
    private parentHash: Uint8Array,
    private parentNumber: bigint,
  ) {
    this.byNumber.set(parentNumber, parentHash)
  }

  /**
   * Re-anchors on a new parent without forgetting what is still valid: the cache holds one chain, so it is kept
   * only when the new parent's own parent is the hash cached at its height (the next block of an import, or a
   * sibling built on the same parent) — a parent one higher on another branch shares nothing with it.
   */
  advance(hash: Uint8Array, number: bigint, parentHash: Uint8Array): void {
    const below = this.byNumber.get(number - 1n)
    if (below === undefined || !equalBytes(below, parentHash)) {
      this.byNumber.clear()
    } else {
      for (const n of this.byNumber.keys()) if (n >= number) this.byNumber.delete(n)
    }
    this.byNumber.set(number, hash)
    this.parentHash = hash
    this.parentNumber = number
    // BLOCKHASH reaches back 256 blocks at most.
    this.byNumber.delete(number - 257n)
  }

  hashOf(number: bigint): Uint8Array | undefined {
    if (number > this.parentNumber || number < 0n) return undefined
    const known = this.byNumber.get(number)
    if (known !== undefined) return known
    let n = this.parentNumber
    let hash = this.parentHash
    while (n > number) {
      const cached = this.byNumber.get(n - 1n)
      if (cached !== undefined) {
        hash = cached
      } else {
        const header = HeaderView.read(this.store, hash)
        if (header === undefined) return undefined
        hash = header.parentHash
        this.byNumber.set(n - 1n, hash)
      }
      n--
    }
    return hash
  }

  // The EVM's blockchain interface.
  getBlock(blockId: number): Promise<{ hash(): Uint8Array }> {
    const hash = this.hashOf(BigInt(blockId))
    if (hash === undefined) return Promise.reject(new Error(`block ${blockId} is not an ancestor`))
    return Promise.resolve({ hash: () => hash })
  }

  putBlock(): Promise<void> {
    return Promise.resolve()
  }

  shallowCopy(): AncestorView {
    return this
  }

  /** Header checks happen in headerValidation.ts before runBlock, which is told to skip its own. */
  validateHeader(): Promise<void> {
    return Promise.resolve()
  }
}
