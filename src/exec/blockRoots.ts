import type { Block } from '@ethereumjs/block'
import { RLP } from '@ethereumjs/rlp'
import type { TypedTransaction } from '@ethereumjs/tx'
import type { Withdrawal } from '@ethereumjs/util'
import { orderedTrieRoot } from '../trie/orderedTrie.js'
import { equalBytes } from '../util/hex.js'
import { InvalidBlockError } from './errors.js'

export const transactionsRoot = (txs: TypedTransaction[]): Uint8Array => orderedTrieRoot(txs.map((t) => t.serialize()))

export const withdrawalsRoot = (ws: Withdrawal[]): Uint8Array => orderedTrieRoot(ws.map((w) => RLP.encode(w.raw())))

interface KnownRoots {
  txRoot?: Uint8Array
  withdrawalsRoot?: Uint8Array
  /** The transactions' bytes the block was made of (a payload's): its stored body and senders need no re-encoding. */
  txBytes?: Uint8Array[]
}

/** Roots computed from the bytes a block was made of (a payload's raw transactions), so they are not computed twice. */
const knownRoots = new WeakMap<Block, KnownRoots>()

/** `known` roots were computed by the caller from the data `block` was made of. */
export function rememberRoots(block: Block, known: KnownRoots): void {
  knownRoots.set(block, known)
}

/** The bytes `block`'s transactions were decoded from, when it was made from them (rememberRoots). */
export function knownTransactionBytes(block: Block): Uint8Array[] | undefined {
  return knownRoots.get(block)?.txBytes
}

/**
 * The checks of a block's body against its header that need no state, as EthereumJS's Block.validateData made them:
 * each transaction valid and signed, paying the base fee, the blob gas within the block's and summing to the header's;
 * the transactions root, the ommers hash, and (Shanghai on) the withdrawals root. Throws InvalidBlockError.
 */
export function validateBody(block: Block): void {
  const errors = block.getTransactionsValidationErrors()
  if (errors.length > 0) throw new InvalidBlockError(`invalid transactions: ${errors.join(' ')}`)
  const txs = block.transactions
  for (let i = 0; i < txs.length; i++) {
    if (!txs[i]!.isSigned()) throw new InvalidBlockError(`invalid transactions: transaction at index ${i} is unsigned`)
  }
  const header = block.header
  const known = knownRoots.get(block)
  if (!equalBytes(known?.txRoot ?? transactionsRoot(txs), header.transactionsTrie)) throw new InvalidBlockError('invalid transaction trie')
  if (!block.uncleHashIsValid()) throw new InvalidBlockError('invalid uncle hash')
  if (block.common.isActivatedEIP(4895)) {
    const root = known?.withdrawalsRoot ?? withdrawalsRoot(block.withdrawals ?? [])
    if (header.withdrawalsRoot === undefined || !equalBytes(root, header.withdrawalsRoot)) throw new InvalidBlockError('invalid withdrawals trie')
  }
}
