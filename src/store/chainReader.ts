import { BlockNotFoundError } from './errors.js'
import { hexToBytes } from '../util/hex.js'
import type { ChainStore } from './chainStore.js'

export interface BlockRef {
  hash: Uint8Array
  number: bigint
}

export type BlockSelector =
  | string
  | { blockHash: string; requireCanonical?: boolean }
  | { blockNumber: string }

/**
 * Resolves block numbers, tags and hashes (EIP-1898) against the store's canonical chain. Reads are LMDB lookups of
 * a few microseconds, so they run on the serving thread.
 */
export class ChainReader {
  constructor(readonly store: ChainStore) {}

  head(): BlockRef {
    const hash = this.store.getLabel('head')
    if (hash === undefined) throw new Error('store has no head')
    return { hash, number: this.store.getNumber(hash)! }
  }

  headNumber(): bigint {
    return this.head().number
  }

  /** undefined when no such block; throws BlockNotFoundError for safe/finalized before they are known. */
  resolve(sel: BlockSelector): BlockRef | undefined {
    if (typeof sel === 'object') {
      if ('blockHash' in sel) {
        const ref = this.byHash(hexToBytes(sel.blockHash))
        if (ref === undefined) throw new BlockNotFoundError(`block ${sel.blockHash} not found`)
        if (sel.requireCanonical === true && !this.isCanonical(ref)) {
          throw new BlockNotFoundError(`block ${sel.blockHash} is not canonical`)
        }
        return ref
      }
      return this.resolve(sel.blockNumber)
    }
    switch (sel) {
      case 'latest':
      case 'pending':
        return this.head()
      case 'earliest':
        return this.byNumber(0n)
      case 'safe':
      case 'finalized': {
        const hash = this.store.getLabel(sel)
        if (hash === undefined) throw new BlockNotFoundError(`${sel} block not found`)
        return { hash, number: this.store.getNumber(hash)! }
      }
    }
    if (sel.length === 66) return this.byHash(hexToBytes(sel))
    return this.byNumber(BigInt(sel))
  }

  byNumber(number: bigint): BlockRef | undefined {
    const hash = this.store.getCanonicalHash(number)
    return hash === undefined ? undefined : { hash, number }
  }

  byHash(hash: Uint8Array): BlockRef | undefined {
    const number = this.store.getNumber(hash)
    return number === undefined ? undefined : { hash, number }
  }

  isCanonical(ref: BlockRef): boolean {
    const c = this.store.getCanonicalHash(ref.number)
    return c !== undefined && Buffer.compare(c, ref.hash) === 0
  }
}
