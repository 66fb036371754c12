import { addr, arr, h, obj, q } from './json.js'

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

export function logJson(log: RawLog, f: LogPlace, logIndex: number): string {
  const [address, topics, data] = log
  return obj([
    ['address', h(address)],
    ['topics', arr(topics.map(h))],
    ['data', h(data)],
    ['blockNumber', q(f.blockNumber)],
    ['transactionHash', h(f.txHash)],
    ['transactionIndex', q(f.index)],
    ['blockHash', h(f.blockHash)],
    ['blockTimestamp', q(f.blockTimestamp)],
    ['logIndex', q(logIndex)],
    ['removed', 'false'],
  ])
}

/** A receipt as eth_getTransactionReceipt returns it (geth's field set); its logs' JSON if already encoded. */
export function receiptJson(f: ReceiptFacts, logTexts?: string[]): string {
  return obj([
    ['blobGasPrice', f.blobGasPrice === undefined ? undefined : q(f.blobGasPrice)],
    ['blobGasUsed', f.blobGasUsed === undefined ? undefined : q(f.blobGasUsed)],
    ['blockHash', h(f.blockHash)],
    ['blockNumber', q(f.blockNumber)],
    ['contractAddress', addr(f.contractAddress)],
    ['cumulativeGasUsed', q(f.cumulativeGasUsed)],
    ['effectiveGasPrice', q(f.effectiveGasPrice)],
    ['from', h(f.from)],
    ['gasUsed', q(f.gasUsed)],
    ['logs', arr(logTexts ?? f.logs.map((l, i) => logJson(l, f, f.firstLogIndex + i)))],
    ['logsBloom', h(f.logsBloom)],
    ['root', f.root === undefined ? undefined : h(f.root)],
    ['status', f.status === undefined ? undefined : q(f.status)],
    ['to', addr(f.to)],
    ['transactionHash', h(f.txHash)],
    ['transactionIndex', q(f.index)],
    ['type', q(f.type)],
  ])
}
