import type { Block } from '@ethereumjs/block'
import { isBlob4844Tx } from '@ethereumjs/tx'
import { Address, generateAddress } from '@ethereumjs/util'
import { type RawLog, type ReceiptFacts, logJson, receiptJson } from '../codecs/receipt.js'
import type { LogEntry } from '../store/blockLogs.js'
import { effectiveGasPrice, transactionJson } from '../codecs/transaction.js'

/** A transaction's receipt as its block's execution leaves it (BlockRun), before the replies are made from it. */
export interface BlockReceipt {
  /** The block's gas used up to and with this transaction. */
  cumulativeGasUsed: bigint
  /** Byzantium on (EIP-658): 1 when the transaction succeeded, else 0. */
  status?: 0 | 1
  /** Before Byzantium: the state root after the transaction, in place of a status. */
  stateRoot?: Uint8Array
  bloom: Uint8Array
  logs: RawLog[]
}

/**
 * Receipt and transaction replies of an executed block, derived once from its receipts: per-transaction gas
 * (difference of cumulative gas), effective gas price, sender, created address and global log indexes.
 */
export function materializeTransactions(
  block: Block,
  receipts: readonly BlockReceipt[],
  senders?: readonly Uint8Array[],
): { txJson: string[]; receiptJson: string[]; txHashes: Uint8Array[]; logs: LogEntry[] } {
  const hd = block.header
  const blockHash = block.hash()
  const txJson: string[] = []
  const receiptOut: string[] = []
  const txHashes: Uint8Array[] = []
  const logs: LogEntry[] = []
  let prevCumulative = 0n
  let logIndex = 0
  const blobGasPrice = hd.excessBlobGas !== undefined ? hd.getBlobGasPrice() : undefined
  block.transactions.forEach((tx, index) => {
    const r = receipts[index]!
    // EthereumJS derives an address from the key with its JS keccak at every ask: the executor's is passed in.
    const from = senders === undefined ? tx.getSenderAddress() : new Address(senders[index]!)
    const txHash = tx.hash()
    txHashes.push(txHash)
    const ctx = {
      blockHash,
      blockNumber: hd.number,
      blockTimestamp: hd.timestamp,
      index,
      baseFee: hd.baseFeePerGas,
    }
    txJson.push(transactionJson(tx, from, ctx))
    const blob = isBlob4844Tx(tx)
    const facts: ReceiptFacts = {
      blockHash,
      blockNumber: hd.number,
      blockTimestamp: hd.timestamp,
      txHash,
      index,
      type: tx.type,
      from: from.bytes,
      to: tx.to?.bytes,
      // Like geth: a creation reports the address derived from sender and nonce, whether or not it succeeded.
      contractAddress: tx.to === undefined ? generateAddress(from.bytes, bigintBytes(tx.nonce)) : undefined,
      cumulativeGasUsed: r.cumulativeGasUsed,
      gasUsed: r.cumulativeGasUsed - prevCumulative,
      effectiveGasPrice: effectiveGasPrice(tx, hd.baseFeePerGas),
      status: r.status,
      root: r.stateRoot,
      logsBloom: r.bloom,
      logs: r.logs,
      firstLogIndex: logIndex,
      blobGasUsed: blob ? BigInt(tx.blobVersionedHashes.length) * 131072n : undefined,
      blobGasPrice: blob ? blobGasPrice : undefined,
    }
    const logTexts = r.logs.map((l, i) => logJson(l, facts, logIndex + i))
    receiptOut.push(receiptJson(facts, logTexts))
    for (let i = 0; i < r.logs.length; i++) logs.push({ address: r.logs[i]![0], topics: r.logs[i]![1], json: logTexts[i]! })
    prevCumulative = r.cumulativeGasUsed
    logIndex += r.logs.length
  })
  return { txJson, receiptJson: receiptOut, txHashes, logs }
}

function bigintBytes(v: bigint): Uint8Array {
  if (v === 0n) return new Uint8Array(0)
  let hex = v.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  return Buffer.from(hex, 'hex')
}
