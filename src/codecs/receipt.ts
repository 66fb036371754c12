import { type JsonWriter, jsonText } from './jsonWriter.js'

/** A log as a receipt's consensus encoding carries it: address, topics, data. */
export type RawLog = [address: Uint8Array, topics: Uint8Array[], data: Uint8Array]

/** Everything a receipt reply needs, derived once when the block is executed. */
export interface ReceiptFacts {
  blockHash: Uint8Array
  blockNumber: bigint
  blockTimestamp: bigint
  txHash: Uint8Array
  index: number
  type: number
  from: Uint8Array
  to: Uint8Array | undefined
  contractAddress: Uint8Array | undefined
  cumulativeGasUsed: bigint
  gasUsed: bigint
  effectiveGasPrice: bigint
  /** Post-Byzantium: 1 or 0. Pre-Byzantium: undefined, and `root` is set. */
  status: number | undefined
  root: Uint8Array | undefined
  logsBloom: Uint8Array
  logs: RawLog[]
  firstLogIndex: number
  blobGasUsed: bigint | undefined
  blobGasPrice: bigint | undefined
}

/** Where a log sits: what its reply names besides its own fields. */
export type LogPlace = Pick<ReceiptFacts, 'blockHash' | 'blockNumber' | 'blockTimestamp' | 'txHash' | 'index'>

/** A log as eth_getLogs and receipts give it. */
export function writeLogJson(w: JsonWriter, log: RawLog, f: LogPlace, logIndex: number): void {
  const [address, topics, data] = log
  w.text('{"address":')
  w.hex(address)
  w.text(',"topics":')
  w.hexList(topics)
  w.text(',"data":')
  w.hex(data)
  w.text(',"blockNumber":')
  w.quantity(f.blockNumber)
  w.text(',"transactionHash":')
  w.hex(f.txHash)
  w.text(',"transactionIndex":')
  w.quantity(f.index)
  w.text(',"blockHash":')
  w.hex(f.blockHash)
  w.text(',"blockTimestamp":')
  w.quantity(f.blockTimestamp)
  w.text(',"logIndex":')
  w.quantity(logIndex)
  w.text(',"removed":false}')
}

export const logJson = (log: RawLog, f: LogPlace, logIndex: number): string => jsonText((w) => writeLogJson(w, log, f, logIndex))

/**
 * A receipt as eth_getTransactionReceipt returns it (geth's field set). `logs` writes its logs' array: by default
 * each log written in place; a block's replies splice the logs' bytes they wrote once for the log records.
 */
export function writeReceiptJson(w: JsonWriter, f: ReceiptFacts, logs?: (w: JsonWriter) => void): void {
  w.text('{')
  if (f.blobGasPrice !== undefined) {
    w.text('"blobGasPrice":')
    w.quantity(f.blobGasPrice)
    w.text(',')
  }
  if (f.blobGasUsed !== undefined) {
    w.text('"blobGasUsed":')
    w.quantity(f.blobGasUsed)
    w.text(',')
  }
  w.text('"blockHash":')
  w.hex(f.blockHash)
  w.text(',"blockNumber":')
  w.quantity(f.blockNumber)
  w.text(',"contractAddress":')
  w.hexOrNull(f.contractAddress)
  w.text(',"cumulativeGasUsed":')
  w.quantity(f.cumulativeGasUsed)
  w.text(',"effectiveGasPrice":')
  w.quantity(f.effectiveGasPrice)
  w.text(',"from":')
  w.hex(f.from)
  w.text(',"gasUsed":')
  w.quantity(f.gasUsed)
  w.text(',"logs":[')
  if (logs !== undefined) logs(w)
  else {
    for (let i = 0; i < f.logs.length; i++) {
      if (i > 0) w.text(',')
      writeLogJson(w, f.logs[i]!, f, f.firstLogIndex + i)
    }
  }
  w.text('],"logsBloom":')
  w.hex(f.logsBloom)
  if (f.root !== undefined) {
    w.text(',"root":')
    w.hex(f.root)
  }
  if (f.status !== undefined) {
    w.text(',"status":')
    w.quantity(f.status)
  }
  w.text(',"to":')
  w.hexOrNull(f.to)
  w.text(',"transactionHash":')
  w.hex(f.txHash)
  w.text(',"transactionIndex":')
  w.quantity(f.index)
  w.text(',"type":')
  w.quantity(f.type)
  w.text('}')
}

export const receiptJson = (f: ReceiptFacts): string => jsonText((w) => writeReceiptJson(w, f))
