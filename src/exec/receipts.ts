import type { Block } from '@ethereumjs/block'
import { isBlob4844Tx } from '@ethereumjs/tx'
import { Address, generateAddress } from '@ethereumjs/util'
import type { TxReceipt } from '@ethereumjs/vm'
import { type ReceiptFacts, logJson, receiptJson } from '../codecs/receipt.js'
import type { LogEntry } from '../store/blockLogs.js'
import { effectiveGasPrice, transactionJson } from '../codecs/transaction.js'

/**
 * Receipt and transaction replies of an executed block, derived once from runBlock's output: per-transaction gas
 * (difference of cumulative gas), effective gas price, sender, created address and global log indexes.
 */
export function materializeTransactions(
  block: Block,
  receipts: TxReceipt[],
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
      cumulativeGasUsed: r.cumulativeBlockGasUsed,
      gasUsed: r.cumulativeBlockGasUsed - prevCumulative,
      effectiveGasPrice: effectiveGasPrice(tx, hd.baseFeePerGas),
      status: 'status' in r ? r.status : undefined,
      root: 'stateRoot' in r ? (r as { stateRoot: Uint8Array }).stateRoot : undefined,
      logsBloom: r.bitvector,
      logs: r.logs,
      firstLogIndex: logIndex,
      blobGasUsed: blob ? BigInt(tx.blobVersionedHashes.length) * 131072n : undefined,
      blobGasPrice: blob ? blobGasPrice : undefined,
    }
    const logTexts = r.logs.map((l, i) => logJson(l, facts, logIndex + i))
    receiptOut.push(receiptJson(facts, logTexts))
    for (let i = 0; i < r.logs.length; i++) logs.push({ address: r.logs[i]![0], topics: r.logs[i]![1], json: logTexts[i]! })
    prevCumulative = r.cumulativeBlockGasUsed
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
