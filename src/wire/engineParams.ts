import typia, { type tags } from 'typia'
import type { Address, Bloom, Bytes, ExtraData, Hash32, Quantity, Quantity64, Quantity256 } from './primitives.js'

// Engine API and testing_ wire types (execution-apis src/engine/*.md, src/testing/), with typia validators.

export interface WithdrawalV1 {
  index: Quantity64
  validatorIndex: Quantity64
  address: Address
  amount: Quantity64
}

/**
 * ExecutionPayloadV1, V2 and V3 in one shape: V2 adds withdrawals, V3 the blob gas fields. Which members a method
 * version requires or forbids is checked in engine/payloadVersions.ts (null counts as absent, as the spec says).
 */
export interface ExecutionPayload {
  parentHash: Hash32
  feeRecipient: Address
  stateRoot: Hash32
  receiptsRoot: Hash32
  logsBloom: Bloom
  prevRandao: Hash32
  blockNumber: Quantity64
  gasLimit: Quantity64
  gasUsed: Quantity64
  timestamp: Quantity64
  extraData: ExtraData
  baseFeePerGas: Quantity256
  blockHash: Hash32
  transactions: Bytes[]
  withdrawals?: WithdrawalV1[] | null
  blobGasUsed?: Quantity64 | null
  excessBlobGas?: Quantity64 | null
}

export interface ForkchoiceStateV1 {
  headBlockHash: Hash32
  safeBlockHash: Hash32
  finalizedBlockHash: Hash32
}

export interface PayloadAttributesV3 {
  timestamp: Quantity64
  prevRandao: Hash32
  suggestedFeeRecipient: Address
  withdrawals: WithdrawalV1[]
  parentBeaconBlockRoot: Hash32
}

/** PayloadAttributes of every version: V1 has neither withdrawals nor beacon root, V2 adds withdrawals. */
export interface PayloadAttributesAny {
  timestamp: Quantity64
  prevRandao: Hash32
  suggestedFeeRecipient: Address
  withdrawals?: WithdrawalV1[] | null
  parentBeaconBlockRoot?: Hash32 | null
}

export type PayloadId = string & tags.Pattern<'^0x[0-9a-f]{16}$'>

export type NewPayloadV1Params = [payload: ExecutionPayload]
export type NewPayloadV3Params = [payload: ExecutionPayload, expectedBlobVersionedHashes: Hash32[], parentBeaconBlockRoot: Hash32]
export type NewPayloadV4Params = [
  payload: ExecutionPayload,
  expectedBlobVersionedHashes: Hash32[],
  parentBeaconBlockRoot: Hash32,
  executionRequests: Bytes[],
]
export type ForkchoiceUpdatedParams = [state: ForkchoiceStateV1, attributes?: PayloadAttributesAny | null]
export type GetPayloadParams = [payloadId: PayloadId]
export type HashListParams = [hashes: Hash32[]]
export type PayloadBodiesByRangeParams = [start: Quantity64, count: Quantity64]
export type ExchangeCapabilitiesParams = [capabilities: string[]]
export type ClientVersionParams = [client: { code: string; name: string; version: string; commit: string }]

/** testing_buildBlockV1: attributes are optional member by member, as the interface allows. */
export interface TestingAttributes {
  timestamp?: Quantity
  prevRandao?: Hash32
  suggestedFeeRecipient?: Address
  withdrawals?: {
    index: Quantity64
    validatorIndex: Quantity64
    address: Address
    amount: Quantity256
  }[]
  parentBeaconBlockRoot?: Hash32
}
export type BuildBlockParams = [parentHash: Hash32, attributes: TestingAttributes, transactions: Bytes[] | null, extraData?: Bytes | null]

export const validateNewPayloadV1 = typia.createValidate<NewPayloadV1Params>()
export const validateNewPayloadV3 = typia.createValidate<NewPayloadV3Params>()
export const validateNewPayloadV4 = typia.createValidate<NewPayloadV4Params>()
export const validateHashList = typia.createValidate<HashListParams>()
export const validatePayloadBodiesByRange = typia.createValidate<PayloadBodiesByRangeParams>()
export const validateForkchoiceUpdated = typia.createValidate<ForkchoiceUpdatedParams>()
export const validateGetPayload = typia.createValidate<GetPayloadParams>()
export const validateExchangeCapabilities = typia.createValidate<ExchangeCapabilitiesParams>()
export const validateClientVersion = typia.createValidate<ClientVersionParams>()
export const validateBuildBlock = typia.createValidate<BuildBlockParams>()
