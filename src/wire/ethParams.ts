import typia, { type tags } from 'typia'
import type {
  Address,
  BlockNumberOrTag,
  BlockNumberOrTagOrHash,
  Bytes,
  RawTxBytes,
  Hash32,
  HexOrDecimal64,
  Quantity,
  Quantity64,
  Quantity256,
  StorageSlot,
} from './primitives.js'
import {
  isAccountParams,
  isBlockByNumberParams,
  isBlockNumberParams,
  isByHashParams,
  isStorageParams,
  isTxByNumberAndIndexParams,
  withQuickCheck,
} from './quickParams.js'

// Positional parameters of the eth/net/web3 methods, and their validators compiled by typia at build time.

export type NoParams = []
export type ByHashParams = [hash: Hash32]
export type BlockByNumberParams = [block: BlockNumberOrTag, fullTransactions: boolean]
export type BlockByHashParams = [hash: Hash32, fullTransactions: boolean]
export type TxByNumberAndIndexParams = [block: BlockNumberOrTag, index: Quantity64]
export type TxByHashAndIndexParams = [hash: Hash32, index: Quantity64]
export type BlockNumberParams = [block: BlockNumberOrTag]
export type BlockReceiptsParams = [block: BlockNumberOrTagOrHash]
/** The block is optional in the state reads: omitted, it means `latest` (as geth). */
export type AccountParams = [address: Address, block?: BlockNumberOrTagOrHash]
export type StorageParams = [address: Address, slot: StorageSlot, block?: BlockNumberOrTagOrHash]
export type StorageValuesParams = [slots: Record<string, StorageSlot[]>, block?: BlockNumberOrTagOrHash]
export type ProofParams = [address: Address, keys: StorageSlot[], block?: BlockNumberOrTagOrHash]
export type RawTxParams = [raw: RawTxBytes]

/** execution-apis GenericTransaction: the call object of eth_call, eth_estimateGas and eth_createAccessList. */
export interface CallObject {
  type?: Quantity
  nonce?: Quantity
  to?: Address | null
  from?: Address
  gas?: Quantity
  value?: Quantity
  input?: Bytes
  data?: Bytes
  gasPrice?: Quantity
  maxPriorityFeePerGas?: Quantity
  maxFeePerGas?: Quantity
  maxFeePerBlobGas?: Quantity
  accessList?: { address: Address; storageKeys: Hash32[] }[]
  blobVersionedHashes?: Hash32[]
  chainId?: Quantity
  authorizationList?: { chainId: Quantity; address: Address; nonce: Quantity; yParity: Quantity; r: Quantity; s: Quantity }[]
}

/** Per account: balance, nonce and code replaced; storage replaced whole (`state`) or slot by slot (`stateDiff`). */
export type StateOverrides = Record<
  string,
  {
    balance?: Quantity
    nonce?: Quantity
    code?: Bytes
    state?: Record<string, Hash32>
    stateDiff?: Record<string, Hash32>
    movePrecompileToAddress?: Address
  }
>

/** geth's types: time and gas limit are uint64 (a larger value is -32602), the others up to 256 bits. */
export interface BlockOverridesWire {
  number?: Quantity256
  time?: Quantity64
  gasLimit?: Quantity64
  feeRecipient?: Address
  prevRandao?: Hash32
  baseFeePerGas?: Quantity256
  blobBaseFee?: Quantity256
}

export type CallParams = [
  call: CallObject,
  block?: BlockNumberOrTagOrHash,
  stateOverrides?: StateOverrides | null,
  blockOverrides?: BlockOverridesWire | null,
]
export type EstimateParams = [call: CallObject, block?: BlockNumberOrTagOrHash, stateOverrides?: StateOverrides | null]
export type AccessListParams = [call: CallObject, block?: BlockNumberOrTagOrHash]

/** debug_trace*'s options: the struct logger's switches, or a tracer and its config (geth's names). */
export interface TraceConfig {
  tracer?: 'callTracer' | 'prestateTracer'
  tracerConfig?: { onlyTopCall?: boolean; withLog?: boolean; diffMode?: boolean }
  disableStack?: boolean
  disableStorage?: boolean
  enableMemory?: boolean
  enableReturnData?: boolean
  timeout?: string
}
export type TraceTxParams = [hash: Hash32, config?: TraceConfig | null]
export type TraceBlockParams = [block: BlockNumberOrTagOrHash, config?: TraceConfig | null]
export type TraceCallParams = [call: CallObject, block?: BlockNumberOrTagOrHash, config?: TraceConfig | null]

export const validateTraceTx = typia.createValidate<TraceTxParams>()
export const validateTraceBlock = typia.createValidate<TraceBlockParams>()
export const validateTraceCall = typia.createValidate<TraceCallParams>()
export const validateCall = typia.createValidate<CallParams>()
export const validateEstimate = typia.createValidate<EstimateParams>()
export const validateAccessList = typia.createValidate<AccessListParams>()
export type Sha3Params = [data: Bytes]
export type AddressParams = [address: Address]
export const validateAddress = typia.createValidate<AddressParams>()
export type MineParams = [] | [timestamp: Quantity | number] | [options: object]
export type RevertParams = [id: Quantity]
export type TimestampParams = [timestamp: Quantity | (number & tags.Type<'uint64'>)]
export const validateMine = typia.createValidate<MineParams>()
export const validateRevert = typia.createValidate<RevertParams>()
export const validateTimestamp = typia.createValidate<TimestampParams>()
export type SignParams = [address: Address, data: Bytes]
export type PersonalSignParams = [data: Bytes, address: Address]
export type SignTypedDataParams = [address: Address, data: string | object]
export const validateSignTypedData = typia.createValidate<SignTypedDataParams>()
export type SendTransactionParams = [tx: CallObject]
export const validateSign = typia.createValidate<SignParams>()
export const validatePersonalSign = typia.createValidate<PersonalSignParams>()
export const validateSendTransaction = typia.createValidate<SendTransactionParams>()
export type FeeHistoryParams = [blockCount: HexOrDecimal64, newestBlock: BlockNumberOrTag, rewardPercentiles?: number[]]
export const validateSha3 = typia.createValidate<Sha3Params>()
export const validateFeeHistory = typia.createValidate<FeeHistoryParams>()
export const validateNoParams = typia.createValidate<NoParams>()
export const validateByHash = withQuickCheck(isByHashParams, typia.createValidate<ByHashParams>())
export const validateBlockByNumber = withQuickCheck(isBlockByNumberParams, typia.createValidate<BlockByNumberParams>())
export const validateBlockByHash = typia.createValidate<BlockByHashParams>()
export const validateTxByNumberAndIndex = withQuickCheck(isTxByNumberAndIndexParams, typia.createValidate<TxByNumberAndIndexParams>())
export const validateTxByHashAndIndex = typia.createValidate<TxByHashAndIndexParams>()
export const validateBlockNumber = withQuickCheck(isBlockNumberParams, typia.createValidate<BlockNumberParams>())
export const validateBlockReceipts = typia.createValidate<BlockReceiptsParams>()
export const validateAccount = withQuickCheck(isAccountParams, typia.createValidate<AccountParams>())
export const validateStorage = withQuickCheck(isStorageParams, typia.createValidate<StorageParams>())
export const validateRawTx = typia.createValidate<RawTxParams>()
export const validateStorageValues = typia.createValidate<StorageValuesParams>()
export const validateProof = typia.createValidate<ProofParams>()

/** A topic as clients send it (either hex case). */
export type Topic = string & tags.Pattern<'^0x[0-9a-fA-F]{64}$'>
/** execution-apis Filter: a range or one block, addresses, and topics by position (null: any). */
export interface LogFilterWire {
  fromBlock?: BlockNumberOrTag
  toBlock?: BlockNumberOrTag
  blockHash?: Hash32
  address?: Address | Address[] | null
  topics?: (Topic | Topic[] | null)[] | null
}
export type LogsParams = [filter: LogFilterWire]
export type FilterIdParams = [id: string & tags.Pattern<'^0x[0-9a-fA-F]{1,64}$'>]
export const validateLogs = typia.createValidate<LogsParams>()
export const validateFilterId = typia.createValidate<FilterIdParams>()

/** execution-apis EthSimulatePayload: blocks of calls with their overrides. */
export interface SimulatePayload {
  blockStateCalls: {
    blockOverrides?:
      | (BlockOverridesWire & { withdrawals?: { index: Quantity; validatorIndex: Quantity; address: Address; amount: Quantity }[] })
      | null
    stateOverrides?: StateOverrides | null
    calls?: (CallObject & { nonce?: Quantity })[] | null
  }[]
  traceTransfers?: boolean
  validation?: boolean
  returnFullTransactions?: boolean
}
export type SimulateParams = [payload: SimulatePayload, block?: BlockNumberOrTagOrHash]
export const validateSimulate = typia.createValidate<SimulateParams>()

export type SubscribeParams =
  | [kind: 'newHeads']
  | [kind: 'logs', filter?: LogFilterWire]
  | [kind: 'newPendingTransactions', fullTransactions?: boolean]
export const validateSubscribe = typia.createValidate<SubscribeParams>()
