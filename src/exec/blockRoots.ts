import type { Block } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import type { Withdrawal } from '@ethereumjs/util'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { equalBytes } from '../util/hex.js'
import type { BlockTx } from '../codecs/blockTx.js'
import { InvalidBlockError } from './errors.js'

export const withdrawalsRoot = (ws: Withdrawal[]): Uint8Array => orderedTrieRoot(ws.map((w) => RLP.encode(w.raw())))

interface KnownRoots {
  txRoot?: Uint8Array
  withdrawalsRoot?: Uint8Array
}

/** Roots computed from the bytes a block was made of (a payload's raw transactions), so they are not computed twice. */
const knownRoots = new WeakMap<Block, KnownRoots>()

/** `known` roots were computed by the caller from the data `block` was made of. */
export function rememberRoots(block: Block, known: KnownRoots): void {
  knownRoots.set(block, known)
}

/**
 * The checks of a block's body against its header that need no state, beside those of each transaction's decoding
 * (blockTx.ts) and of its execution (evmBlock.ts: fees, intrinsic gas, blob gas): the transactions root, the ommers
 * hash, and (Shanghai on) the withdrawals root. Throws InvalidBlockError.
 */
export function validateBody(block: Block, txs: readonly BlockTx[]): void {
  const header = block.header
  const known = knownRoots.get(block)
  const txRoot = known?.txRoot ?? orderedTrieRoot(txs.map((t) => t.raw))
  if (!equalBytes(txRoot, header.transactionsTrie)) throw new InvalidBlockError('invalid transaction trie')
  if (!block.uncleHashIsValid()) throw new InvalidBlockError('invalid uncle hash')
  if (block.common.isActivatedEIP(4895)) {
    const root = known?.withdrawalsRoot ?? withdrawalsRoot(block.withdrawals ?? [])
    if (header.withdrawalsRoot === undefined || !equalBytes(root, header.withdrawalsRoot)) throw new InvalidBlockError('invalid withdrawals trie')
  }
}
