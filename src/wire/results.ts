import type { EthConfig } from '../chain/ethConfig.js'
import type { ExecutionPayload, PayloadId } from './engineParams.js'
import type { Address, Bloom, Bytes, Bytes8, Bytes48, Hash32, Quantity, Quantity64, Quantity256 } from './primitives.js'

// Result types of every method Sponge serves (execution-apis src/eth, src/engine, src/debug; geth's and anvil's
// answers where the interface has none), declared once: `RpcResults` maps each wire name to its result, and the
// method table (rpc/methods/index.ts) checks each handler's return type against it. Types only: nothing here runs.
// The primitives' typia patterns are brands a plain string satisfies: what is checked is the JSON shape (a string,
// a number, an object with these members, null), not the hex digits.

/** execution-apis Withdrawal. */
export interface WithdrawalResult {
  index: Quantity64
  validatorIndex: Quantity64
  address: Address
  amount: Quantity64
}

/** execution-apis Block's header members (eth_getHeaderBy*: the block less its body and size). */
export interface HeaderResult {
  hash: Hash32
  parentHash: Hash32
  sha3Uncles: Hash32
  miner: Address
  stateRoot: Hash32
  transactionsRoot: Hash32
  receiptsRoot: Hash32
  logsBloom: Bloom
  difficulty?: Quantity
  number: Quantity
  gasLimit: Quantity
  gasUsed: Quantity
  timestamp: Quantity
  extraData: Bytes
  mixHash: Hash32
  nonce: Bytes8
  baseFeePerGas?: Quantity
  withdrawalsRoot?: Hash32
  blobGasUsed?: Quantity
  excessBlobGas?: Quantity
  parentBeaconBlockRoot?: Hash32
  requestsHash?: Hash32
}

/** execution-apis Block: the transactions as hashes, or whole (fullTransactions). */
export interface BlockResult extends HeaderResult {
  size: Quantity
  transactions: Hash32[] | TransactionResult[]
  uncles: Hash32[]
  withdrawals?: WithdrawalResult[]
}

/** execution-apis TransactionInfo: a transaction of any type with its place (null while pending). */
export interface TransactionResult {
  type: Quantity
  hash: Hash32
  blockHash: Hash32 | null
  blockNumber: Quantity | null
  transactionIndex: Quantity | null
  from: Address
  to: Address | null
  nonce: Quantity
  gas: Quantity
  value: Quantity
  input: Bytes
  gasPrice?: Quantity
  maxFeePerGas?: Quantity
  maxPriorityFeePerGas?: Quantity
  maxFeePerBlobGas?: Quantity
  accessList?: AccessListEntryResult[]
  blobVersionedHashes?: Hash32[]
  authorizationList?: { chainId: Quantity; address: Address; nonce: Quantity; yParity: Quantity; r: Quantity; s: Quantity }[]
  chainId?: Quantity
  v?: Quantity
  r: Quantity
  s: Quantity
  yParity?: Quantity
}

/**
 * eth_fillTransaction's transaction (geth's types.Transaction JSON, unsigned): the fee members of the other kind are
 * null, the signature zero, the hash that of the unsigned encoding.
 */
export interface FilledTransaction {
  type: Quantity
  chainId?: Quantity
  nonce: Quantity
  to: Address | null
  gas: Quantity
  gasPrice: Quantity | null
  maxPriorityFeePerGas: Quantity | null
  maxFeePerGas: Quantity | null
  maxFeePerBlobGas?: Quantity
  value: Quantity
  input: Bytes
  accessList?: AccessListEntryResult[]
  blobVersionedHashes?: Hash32[]
  authorizationList?: { chainId: Quantity; address: Address; nonce: Quantity; yParity: Quantity; r: Quantity; s: Quantity }[]
  v: Quantity
  r: Quantity
  s: Quantity
  yParity?: Quantity
  hash: Hash32
}

/** eth_fillTransaction (geth's SignTransactionResult): the unsigned transaction's encoding and its JSON. */
export interface FillTransactionResult {
  raw: Bytes
  tx: FilledTransaction
}

/** execution-apis Log. */
export interface LogResult {
  removed?: boolean
  logIndex: Quantity
  transactionIndex: Quantity
  transactionHash: Hash32
  blockHash: Hash32
  blockNumber: Quantity
  blockTimestamp?: Quantity
  address: Address
  data: Bytes
  topics: Hash32[]
}

/** execution-apis ReceiptInfo. */
export interface ReceiptResult {
  type?: Quantity
  transactionHash: Hash32
  transactionIndex: Quantity
  blockHash: Hash32
  blockNumber: Quantity
  from: Address
  to: Address | null
  cumulativeGasUsed: Quantity
  gasUsed: Quantity
  blobGasUsed?: Quantity
  contractAddress: Address | null
  logs: LogResult[]
  logsBloom: Bloom
  root?: Hash32
  status?: Quantity
  effectiveGasPrice: Quantity
  blobGasPrice?: Quantity
}

export interface AccessListEntryResult {
  address: Address
  storageKeys: Hash32[]
}

/** eth_createAccessList (execution-apis AccessListResult): with `error` when the call fails with the final list. */
export interface AccessListResult {
  accessList: AccessListEntryResult[]
  gasUsed: Quantity
  error?: string
}

/** eth_feeHistory (fee_market.yaml). */
export interface FeeHistoryResult {
  oldestBlock: Quantity
  baseFeePerGas: Quantity[]
  gasUsedRatio: number[]
  baseFeePerBlobGas: Quantity[]
  blobGasUsedRatio: number[]
  reward?: Quantity[][]
}

/** eth_capabilities (capabilities.yaml): the head, and from where each kind of history is served. */
export interface CapabilitiesResult {
  head: { number: Quantity; hash: Hash32 }
  state: HistoryRange
  tx: HistoryRange
  logs: HistoryRange
  receipts: HistoryRange
  blocks: HistoryRange
  stateproofs: HistoryRange
}
export interface HistoryRange {
  disabled: boolean
  oldestBlock: Quantity
}

/** eth_syncing: false, or the progress of a sync (Sponge never syncs). */
export type SyncingResult = false | { startingBlock: Quantity; currentBlock: Quantity; highestBlock: Quantity }

/** EIP-1186 eth_getProof. */
export interface AccountProofResult {
  address: Address
  accountProof: Bytes[]
  balance: Quantity
  codeHash: Hash32
  nonce: Quantity
  storageHash: Hash32
  storageProof: { key: string; value: Quantity; proof: Bytes[] }[]
}

/** eth_simulateV1: one call's outcome in a simulated block. */
export interface SimulatedCallResult {
  returnData: Bytes
  logs: LogResult[]
  gasUsed: Quantity
  maxUsedGas: Quantity
  status: Quantity
  error?: { code: number; message: string; data?: Bytes }
}
export interface SimulatedBlockResult extends BlockResult {
  calls: SimulatedCallResult[]
}

/** txpool_*: transactions (or geth's one-line summaries) by sender, then by nonce. */
export interface TxPoolContentResult<T> {
  pending: Record<string, Record<string, T>>
  queued: Record<string, Record<string, T>>
}
/** txpool_contentFrom: one sender's, by nonce. */
export interface TxPoolContentFromResult {
  pending: Record<string, TransactionResult>
  queued: Record<string, TransactionResult>
}

/** geth's struct logger: one entry per executed opcode. */
export interface StructLogResult {
  pc: number
  op: string
  gas: number
  gasCost: number
  depth: number
  refund?: number
  stack?: Quantity[]
  memory?: string[]
  storage?: Record<string, string>
  error?: string
}
export interface StructLogTraceResult {
  gas: number
  failed: boolean
  returnValue: Bytes
  structLogs: StructLogResult[]
}
/** geth's callTracer frame. */
export interface CallFrameResult {
  type: string
  from: Address
  to?: Address
  value?: Quantity
  gas: Quantity
  gasUsed?: Quantity
  input: Bytes
  output?: Bytes
  error?: string
  revertReason?: string
  calls?: CallFrameResult[]
  logs?: { address: Address; topics: Hash32[]; data: Bytes; position: Quantity }[]
}
/** geth's prestateTracer: the touched accounts before (and with diffMode, after). */
export interface PrestateAccountResult {
  balance?: Quantity
  nonce?: number
  code?: Bytes
  storage?: Record<string, Hash32>
}
export type PrestateTraceResult =
  | Record<string, PrestateAccountResult>
  | { pre: Record<string, PrestateAccountResult>; post: Record<string, PrestateAccountResult> }
/** What a debug_trace* tracer answers: the struct logger's, the call tracer's or the prestate tracer's. */
export type TraceResult = StructLogTraceResult | CallFrameResult | PrestateTraceResult
export interface BlockTraceResult {
  txHash: Hash32
  result: TraceResult
}

/** Engine API PayloadStatusV1. */
export interface PayloadStatusResult {
  status: 'VALID' | 'INVALID' | 'SYNCING' | 'ACCEPTED' | 'INVALID_BLOCK_HASH'
  latestValidHash: Hash32 | null
  validationError: string | null
}
export interface ForkchoiceUpdatedResult {
  payloadStatus: PayloadStatusResult
  payloadId: PayloadId | null
}
/** BlobsBundleV1 (V2: cell proofs, 128 a blob). */
export interface BlobsBundleResult {
  commitments: Bytes48[]
  proofs: Bytes48[]
  blobs: Bytes[]
}
export interface GetPayloadV2Result {
  executionPayload: ExecutionPayload
  blockValue: Quantity256
}
export interface GetPayloadV3Result extends GetPayloadV2Result {
  blobsBundle: BlobsBundleResult
  shouldOverrideBuilder: boolean
}
/** engine_getPayloadV4 and V5 (V5: the bundle's cell proofs), and testing_buildBlockV1. */
export interface GetPayloadV4Result extends GetPayloadV3Result {
  executionRequests: Bytes[]
}
export interface BlobAndProofV1Result {
  blob: Bytes
  proof: Bytes48
}
export interface BlobAndProofV2Result {
  blob: Bytes
  proofs: Bytes48[]
}
/** ExecutionPayloadBodyV1: withdrawals null before Shanghai. */
export interface PayloadBodyResult {
  transactions: Bytes[]
  withdrawals: WithdrawalResult[] | null
}
export interface ClientVersionResult {
  code: string
  name: string
  version: string
  commit: string
}

/** Every method's result, by wire name: the method table has exactly these methods, each handler checked against its own. */
export interface RpcResults {
  eth_chainId: Quantity
  eth_blockNumber: Quantity
  eth_config: EthConfig
  eth_getBlockByNumber: BlockResult | null
  eth_getBlockByHash: BlockResult | null
  eth_getTransactionByHash: TransactionResult | null
  eth_getTransactionByBlockNumberAndIndex: TransactionResult | null
  eth_getTransactionByBlockHashAndIndex: TransactionResult | null
  eth_getTransactionReceipt: ReceiptResult | null
  eth_getBlockReceipts: ReceiptResult[] | null
  eth_getBlockTransactionCountByNumber: Quantity | null
  eth_getBlockTransactionCountByHash: Quantity | null
  eth_getBalance: Quantity
  eth_getCode: Bytes
  eth_getStorageAt: Hash32
  eth_getTransactionCount: Quantity
  eth_blobBaseFee: Quantity
  eth_baseFee: Quantity
  eth_capabilities: CapabilitiesResult
  eth_feeHistory: FeeHistoryResult
  eth_syncing: SyncingResult
  eth_mining: boolean
  eth_hashrate: Quantity
  eth_coinbase: Address
  eth_protocolVersion: Quantity
  eth_accounts: readonly Address[]
  eth_getUncleCountByBlockNumber: Quantity | null
  eth_getUncleCountByBlockHash: Quantity | null
  eth_getUncleByBlockNumberAndIndex: BlockResult | null
  eth_getUncleByBlockHashAndIndex: BlockResult | null
  eth_getHeaderByNumber: HeaderResult | null
  eth_getHeaderByHash: HeaderResult | null
  net_listening: boolean
  net_peerCount: Quantity
  web3_sha3: Hash32
  eth_sendTransaction: Hash32
  eth_fillTransaction: FillTransactionResult
  eth_sign: Bytes
  personal_sign: Bytes
  eth_signTypedData_v4: Bytes
  evm_mine: Quantity
  evm_snapshot: Quantity
  evm_revert: boolean
  evm_setNextBlockTimestamp: Quantity
  txpool_status: { pending: Quantity; queued: Quantity }
  txpool_content: TxPoolContentResult<TransactionResult>
  txpool_contentFrom: TxPoolContentFromResult
  txpool_inspect: TxPoolContentResult<string>
  eth_pendingTransactions: TransactionResult[]
  eth_gasPrice: Quantity
  eth_maxPriorityFeePerGas: Quantity
  eth_simulateV1: SimulatedBlockResult[]
  eth_subscribe: Quantity
  eth_unsubscribe: boolean
  eth_getLogs: LogResult[]
  eth_newFilter: Quantity
  eth_newBlockFilter: Quantity
  eth_newPendingTransactionFilter: Quantity
  /** Logs for a log filter; block or transaction hashes for the others. */
  eth_getFilterChanges: LogResult[] | Hash32[]
  eth_getFilterLogs: LogResult[]
  eth_uninstallFilter: boolean
  eth_call: Bytes
  eth_estimateGas: Quantity
  eth_createAccessList: AccessListResult
  /** By address as asked, each slot's value in the order asked. */
  eth_getStorageValues: Record<string, Hash32[]>
  eth_getProof: AccountProofResult
  debug_traceTransaction: TraceResult
  debug_traceBlockByNumber: BlockTraceResult[]
  debug_traceBlockByHash: BlockTraceResult[]
  debug_traceCall: TraceResult
  debug_getRawHeader: Bytes
  debug_getRawBlock: Bytes
  debug_getRawReceipts: Bytes[]
  debug_getRawTransaction: Bytes | null
  /** The chain id in decimal. */
  net_version: string
  web3_clientVersion: string
  eth_sendRawTransaction: Hash32
  engine_newPayloadV1: PayloadStatusResult
  engine_newPayloadV2: PayloadStatusResult
  engine_newPayloadV3: PayloadStatusResult
  engine_newPayloadV4: PayloadStatusResult
  engine_forkchoiceUpdatedV1: ForkchoiceUpdatedResult
  engine_forkchoiceUpdatedV2: ForkchoiceUpdatedResult
  engine_forkchoiceUpdatedV3: ForkchoiceUpdatedResult
  engine_getPayloadV1: ExecutionPayload
  engine_getPayloadV2: GetPayloadV2Result
  engine_getPayloadV3: GetPayloadV3Result
  engine_getPayloadV4: GetPayloadV4Result
  engine_getPayloadV5: GetPayloadV4Result
  engine_getBlobsV1: (BlobAndProofV1Result | null)[]
  /** null as a whole when any blob is missing (and before Osaka). */
  engine_getBlobsV2: BlobAndProofV2Result[] | null
  engine_getPayloadBodiesByHashV1: (PayloadBodyResult | null)[]
  engine_getPayloadBodiesByRangeV1: (PayloadBodyResult | null)[]
  engine_exchangeCapabilities: readonly string[]
  engine_getClientVersionV1: ClientVersionResult[]
  testing_buildBlockV1: GetPayloadV4Result
}

export type RpcMethod = keyof RpcResults
