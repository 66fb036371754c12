import type { BlockId, BlockTag } from '../store/chainReader.js'
import { hexToBytes } from '../util/hex.js'
import type { BlockNumberOrTagOrHash } from '../wire/primitives.js'

// Block parameters from the wire (already checked against the interface's patterns by typia) into the domain's
// BlockId, once, at the edge: below src/rpc nothing looks at a block parameter's text again.

const TAGS: ReadonlySet<string> = new Set<BlockTag>(['earliest', 'latest', 'pending', 'safe', 'finalized'])

/** A block number, tag or hash, or EIP-1898's object; an omitted one is `fallback`. */
export function blockIdOf(wire: BlockNumberOrTagOrHash | undefined, fallback: BlockTag = 'latest'): BlockId {
  if (wire === undefined) return { tag: fallback }
  if (typeof wire === 'object') {
    if ('blockHash' in wire) return { hash: hexToBytes(wire.blockHash), mustExist: true, requireCanonical: wire.requireCanonical === true }
    return blockIdOf(wire.blockNumber)
  }
  if (TAGS.has(wire)) return { tag: wire as BlockTag }
  // The wire patterns leave two string shapes: a 32-byte hash (66 characters) and a quantity of at most 64 bits.
  if (wire.length === 66) return { hash: hexToBytes(wire), mustExist: false, requireCanonical: false }
  return { number: BigInt(wire) }
}
