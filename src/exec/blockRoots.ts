import type { Block } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Withdrawal } from '@ethereumjs/util'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { blockRootCache } from '../state/ethereumjsInternals.js'

export const transactionsRoot = (txs: TypedTransaction[]): Uint8Array => orderedTrieRoot(txs.map((t) => t.serialize()))

export const withdrawalsRoot = (ws: Withdrawal[]): Uint8Array => orderedTrieRoot(ws.map((w) => RLP.encode(w.raw())))

/**
 * Fills the block's cached transaction and withdrawal roots with our fast computation, so that runBlock's
 * validateData compares the header against them instead of rebuilding both tries with EthereumJS's general trie.
 * (The cache is the library's own memo for exactly these two values.) `known` roots were computed by the caller from
 * the same data (a payload's raw transactions).
 */
export function primeRootCache(block: Block, known: { txRoot?: Uint8Array; withdrawalsRoot?: Uint8Array } = {}): void {
  const cache = blockRootCache(block)
  cache.txTrieRoot ??= known.txRoot ?? transactionsRoot(block.transactions)
  if (block.withdrawals !== undefined) cache.withdrawalsTrieRoot ??= known.withdrawalsRoot ?? withdrawalsRoot(block.withdrawals)
}
