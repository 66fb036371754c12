import typia from 'typia'
import type {
  Address,
  BlockNumberOrTag,
  BlockNumberOrTagOrHash,
  RawTxBytes,
  Hash32,
  Quantity64,
  StorageSlot,
} from './primitives.js'

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

export const validateNoParams = typia.createValidate<NoParams>()
export const validateByHash = typia.createValidate<ByHashParams>()
export const validateBlockByNumber = typia.createValidate<BlockByNumberParams>()
export const validateBlockByHash = typia.createValidate<BlockByHashParams>()
export const validateTxByNumberAndIndex = typia.createValidate<TxByNumberAndIndexParams>()
export const validateTxByHashAndIndex = typia.createValidate<TxByHashAndIndexParams>()
export const validateBlockNumber = typia.createValidate<BlockNumberParams>()
export const validateBlockReceipts = typia.createValidate<BlockReceiptsParams>()
export const validateAccount = typia.createValidate<AccountParams>()
export const validateStorage = typia.createValidate<StorageParams>()
export const validateRawTx = typia.createValidate<RawTxParams>()
export const validateStorageValues = typia.createValidate<StorageValuesParams>()
export const validateProof = typia.createValidate<ProofParams>()
