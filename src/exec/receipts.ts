import { generateAddress } from '@ethereumjs/util'
import { JsonWriter } from '../codecs/jsonWriter.js'
import { type RawLog, type ReceiptFacts, writeLogJson, writeReceiptJson } from '../codecs/receipt.js'
import type { LogEntry } from '../store/blockLogs.js'
import { effectiveGasPrice, writeTransactionJson } from '../codecs/transaction.js'
import type { BlockTx } from '../codecs/blockTx.js'
import type { BlockParts } from '../codecs/blockParts.js'
import { GAS_PER_BLOB } from '../chain/blobFee.js'

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

/** A block's stored replies: each transaction's and receipt's JSON, views of one buffer. */
export interface BlockReplies {
  txJson: Uint8Array[]
  receiptJson: Uint8Array[]
  txHashes: Uint8Array[]
  logs: LogEntry[]
}

/**
 * Receipt and transaction replies of an executed block, derived once from its receipts: per-transaction gas
 * (difference of cumulative gas), effective gas price, sender, created address and global log indexes. Written as
 * bytes into one buffer, each log once: its receipt and the block's log records share its bytes. `blobGasPrice`: the
 * block's blob base fee (Cancun on), which its blob transactions' receipts report.
 */
export function materializeTransactions(
  block: BlockParts,
  txs: readonly BlockTx[],
  receipts: readonly BlockReceipt[],
  senders: readonly Uint8Array[],
  blobGasPrice: bigint | undefined,
): BlockReplies {
  const hd = block.header
  const blockHash = block.hash
  const txCount = txs.length
  // About what a token transfer's replies take: one growth at most for most blocks.
  const w = new JsonWriter(256 + 1800 * txCount)
  /** Offsets: each transaction's JSON, then its receipt's, [start, end) each. */
  const txAt = new Array<number>(2 * txCount)
  const receiptAt = new Array<number>(2 * txCount)
  const txHashes: Uint8Array[] = []
  const logAt: number[] = []
  const logSources: RawLog[] = []
  let prevCumulative = 0n
  let logIndex = 0
  for (let index = 0; index < txCount; index++) {
    const tx = txs[index]!
    const r = receipts[index]!
    const from = senders[index]!
    const txHash = tx.hash
    txHashes.push(txHash)
    const ctx = {
      blockHash,
      blockNumber: hd.number,
      blockTimestamp: hd.timestamp,
      index,
      baseFee: hd.baseFee,
    }
    txAt[2 * index] = w.mark()
    writeTransactionJson(w, tx, from, ctx)
    txAt[2 * index + 1] = w.mark()
    const blob = tx.type === 3
    const facts: ReceiptFacts = {
      blockHash,
      blockNumber: hd.number,
      blockTimestamp: hd.timestamp,
      txHash,
      index,
      type: tx.type,
      from,
      to: tx.to,
      // Like geth: a creation reports the address derived from sender and nonce, whether or not it succeeded.
      contractAddress: tx.to === undefined ? generateAddress(from, bigintBytes(tx.nonce)) : undefined,
      cumulativeGasUsed: r.cumulativeGasUsed,
      gasUsed: r.cumulativeGasUsed - prevCumulative,
      effectiveGasPrice: effectiveGasPrice(tx, hd.baseFee),
      status: r.status,
      root: r.stateRoot,
      logsBloom: r.bloom,
      logs: r.logs,
      firstLogIndex: logIndex,
      blobGasUsed: blob ? BigInt(tx.blobVersionedHashes.length) * GAS_PER_BLOB : undefined,
      blobGasPrice: blob ? blobGasPrice : undefined,
    }
    receiptAt[2 * index] = w.mark()
    writeReceiptJson(w, facts, (w) => {
      for (let i = 0; i < r.logs.length; i++) {
        if (i > 0) w.text(',')
        logAt.push(w.mark())
        writeLogJson(w, r.logs[i]!, facts, logIndex + i)
        logAt.push(w.mark())
        logSources.push(r.logs[i]!)
      }
    })
    receiptAt[2 * index + 1] = w.mark()
    prevCumulative = r.cumulativeGasUsed
    logIndex += r.logs.length
  }
  const txJson: Uint8Array[] = []
  const receiptJson: Uint8Array[] = []
  for (let i = 0; i < txCount; i++) {
    txJson.push(w.slice(txAt[2 * i]!, txAt[2 * i + 1]!))
    receiptJson.push(w.slice(receiptAt[2 * i]!, receiptAt[2 * i + 1]!))
  }
  const logs = logSources.map(([address, topics], i): LogEntry => ({ address, topics, json: w.slice(logAt[2 * i]!, logAt[2 * i + 1]!) }))
  return { txJson, receiptJson, txHashes, logs }
}

function bigintBytes(v: bigint): Uint8Array {
  if (v === 0n) return new Uint8Array(0)
  let hex = v.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  return Buffer.from(hex, 'hex')
}
