import { BlockNotFoundError } from './errors.js'
import { bytesToHex } from '../util/hex.js'
import type { ChainStore } from './chainStore.js'
import { HeaderView } from './headerView.js'

export interface BlockRef {
  hash: Uint8Array
  number: bigint
}

export type BlockTag = 'earliest' | 'latest' | 'pending' | 'safe' | 'finalized'

/**
 * A block as a request names it, parsed once at the edge (src/rpc/blockId.ts). A hash named in EIP-1898's object
 * form must exist (`mustExist`), and with `requireCanonical` be canonical; a bare hash may name nothing.
 */
export type BlockId = { tag: BlockTag } | { number: bigint } | { hash: Uint8Array; mustExist: boolean; requireCanonical: boolean }

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

  /** The canonical head's header (what the next block's rules, base fee and timestamp follow from). */
  headHeader(): HeaderView {
    const head = this.head()
    const header = HeaderView.read(this.store, head.hash)
    if (header === undefined) throw new Error(`store has no header for its head ${bytesToHex(head.hash)}`)
    return header
  }

  /** undefined when no such block; throws BlockNotFoundError for safe/finalized before they are known. */
  resolve(id: BlockId): BlockRef | undefined {
    if ('number' in id) return this.byNumber(id.number)
    if ('hash' in id) {
      const ref = this.byHash(id.hash)
      if (!id.mustExist) return ref
      if (ref === undefined) throw new BlockNotFoundError(`block ${bytesToHex(id.hash)} not found`)
      if (id.requireCanonical && !this.isCanonical(ref)) throw new BlockNotFoundError(`block ${bytesToHex(id.hash)} is not canonical`)
      return ref
    }
    switch (id.tag) {
      case 'latest':
      case 'pending':
        return this.head()
      case 'earliest':
        return this.byNumber(0n)
      case 'safe':
      case 'finalized': {
        const hash = this.store.getLabel(id.tag)
        if (hash === undefined) throw new BlockNotFoundError(`${id.tag} block not found`)
        return { hash, number: this.store.getNumber(hash)! }
      }
    }
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
