import type { BlockParts } from '../codecs/blockParts.js'
import { blockJsonPrefix } from '../codecs/block.js'
import { blockIndexKeys, encodeBlockLogs } from '../store/blockLogs.js'
import { blockSize, bodyRlp } from '../store/blockCodec.js'
import type { BlockRecord, TrieNodeWrite } from '../store/chainStore.js'
import type { BlockTx } from '../codecs/blockTx.js'
import { type BlockReceipt, materializeTransactions } from './receipts.js'

/**
 * An executed block as the store keeps it: header, body, the replies written once (block, transactions, receipts),
 * logs and their index, and the state it wrote — trie nodes and code, and the flat table's change list.
 * `blobGasPrice`: the block's blob base fee, Cancun on.
 */
export function blockRecord(
  block: BlockParts,
  txs: readonly BlockTx[],
  receipts: readonly BlockReceipt[],
  trieNodes: TrieNodeWrite[],
  stateChanges: Uint8Array,
  senders: readonly Uint8Array[],
  blobGasPrice: bigint | undefined,
): BlockRecord {
  const { txJson, receiptJson, txHashes, logs } = materializeTransactions(block, txs, receipts, senders, blobGasPrice)
  const { headerRlp, hash } = block
  const body = bodyRlp(
    block,
    txs.map((t) => t.raw),
  )
  return {
    hash,
    number: block.header.number,
    headerRlp,
    bodyRlp: body,
    txHashes,
    blockJson: blockJsonPrefix(block, blockSize(headerRlp, body)),
    txJson,
    receiptJson,
    logs: logs.length === 0 ? undefined : encodeBlockLogs(logs),
    logKeys: blockIndexKeys(logs, block.header.number, hash),
    trieNodes,
    parentHash: block.header.parentHash,
    stateRoot: block.header.stateRoot,
    stateChanges,
  }
}
