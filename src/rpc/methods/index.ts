import { type MethodTable, method } from '../methodTable.js'
import * as e from '../../wire/engineParams.js'
import * as p from '../../wire/ethParams.js'
import * as reads from './chainReads.js'
import * as call from './call.js'
import * as cfg from './config.js'
import * as debug from './debug.js'
import * as devChain from './devChain.js'
import * as fees from './fees.js'
import * as logs from './logs.js'
import * as node from './node.js'
import * as wallet from './wallet.js'
import * as engine from './engine.js'
import * as simulate from './simulate.js'
import * as state from './state.js'
import * as subscriptions from './subscriptions.js'
import * as testing from './testing.js'
import * as trace from './trace.js'
import * as txpool from './txpool.js'
import * as txs from './transactions.js'

/**
 * Every method Sponge serves, by wire name; each endpoint serves the namespaces it enables. 'pool' marks the methods
 * whose work runs in the endpoint's worker lane (admitted or refused by it); the rest answer on the serving thread.
 */
export function allMethods(): Map<string, ReturnType<typeof method>> {
  return new Map([
    ['eth_chainId', method('eth', p.validateNoParams, reads.chainId)],
    ['eth_blockNumber', method('eth', p.validateNoParams, reads.blockNumber)],
    ['eth_config', method('eth', p.validateNoParams, cfg.config)],
    ['eth_getBlockByNumber', method('eth', p.validateBlockByNumber, reads.blockByNumber)],
    ['eth_getBlockByHash', method('eth', p.validateBlockByHash, reads.blockByHash)],
    ['eth_getTransactionByHash', method('eth', p.validateByHash, reads.txByHash)],
    ['eth_getTransactionByBlockNumberAndIndex', method('eth', p.validateTxByNumberAndIndex, reads.txByBlockNumberAndIndex)],
    ['eth_getTransactionByBlockHashAndIndex', method('eth', p.validateTxByHashAndIndex, reads.txByBlockHashAndIndex)],
    ['eth_getTransactionReceipt', method('eth', p.validateByHash, reads.receipt)],
    ['eth_getBlockReceipts', method('eth', p.validateBlockReceipts, reads.blockReceipts)],
    ['eth_getBlockTransactionCountByNumber', method('eth', p.validateBlockNumber, reads.txCountByNumber)],
    ['eth_getBlockTransactionCountByHash', method('eth', p.validateByHash, reads.txCountByHash)],
    ['eth_getBalance', method('eth', p.validateAccount, state.balance)],
    ['eth_getCode', method('eth', p.validateAccount, state.code)],
    ['eth_getStorageAt', method('eth', p.validateStorage, state.storageAt)],
    ['eth_getTransactionCount', method('eth', p.validateAccount, state.transactionCount)],
    ['eth_blobBaseFee', method('eth', p.validateNoParams, fees.blobBaseFee)],
    ['eth_baseFee', method('eth', p.validateNoParams, fees.baseFee)],
    ['eth_capabilities', method('eth', p.validateNoParams, node.capabilities)],
    ['eth_feeHistory', method('eth', p.validateFeeHistory, fees.feeHistory)],
    ['eth_syncing', method('eth', p.validateNoParams, node.syncing)],
    ['eth_mining', method('eth', p.validateNoParams, node.mining)],
    ['eth_hashrate', method('eth', p.validateNoParams, node.hashrate)],
    ['eth_coinbase', method('eth', p.validateNoParams, node.coinbase)],
    ['eth_protocolVersion', method('eth', p.validateNoParams, node.protocolVersion)],
    ['eth_accounts', method('eth', p.validateNoParams, node.accounts)],
    ['eth_getUncleCountByBlockNumber', method('eth', p.validateBlockNumber, node.uncleCountByNumber)],
    ['eth_getUncleCountByBlockHash', method('eth', p.validateByHash, node.uncleCountByHash)],
    ['eth_getUncleByBlockNumberAndIndex', method('eth', p.validateTxByNumberAndIndex, node.uncleByNumberAndIndex)],
    ['eth_getUncleByBlockHashAndIndex', method('eth', p.validateTxByHashAndIndex, node.uncleByHashAndIndex)],
    ['eth_getHeaderByNumber', method('eth', p.validateBlockNumber, node.headerByNumber)],
    ['eth_getHeaderByHash', method('eth', p.validateByHash, node.headerByHash)],
    ['net_listening', method('net', p.validateNoParams, node.listening)],
    ['net_peerCount', method('net', p.validateNoParams, node.peerCount)],
    ['web3_sha3', method('web3', p.validateSha3, node.sha3)],
    ['eth_sendTransaction', method('eth', p.validateSendTransaction, wallet.sendTransaction, 'pool')],
    ['eth_sign', method('eth', p.validateSign, wallet.sign)],
    ['personal_sign', method('eth', p.validatePersonalSign, wallet.personalSign)],
    ['eth_signTypedData_v4', method('eth', p.validateSignTypedData, wallet.signTypedData)],
    ['evm_mine', method('evm', p.validateMine, devChain.mine)],
    ['evm_snapshot', method('evm', p.validateNoParams, devChain.snapshot)],
    ['evm_revert', method('evm', p.validateRevert, devChain.revert)],
    ['evm_setNextBlockTimestamp', method('evm', p.validateTimestamp, devChain.setNextBlockTimestamp)],
    ['txpool_status', method('txpool', p.validateNoParams, txpool.status)],
    ['txpool_content', method('txpool', p.validateNoParams, txpool.content)],
    ['txpool_contentFrom', method('txpool', p.validateAddress, txpool.contentFrom)],
    ['txpool_inspect', method('txpool', p.validateNoParams, txpool.inspect)],
    ['eth_pendingTransactions', method('eth', p.validateNoParams, txpool.pendingTransactions)],
    ['eth_gasPrice', method('eth', p.validateNoParams, fees.gasPrice)],
    ['eth_maxPriorityFeePerGas', method('eth', p.validateNoParams, fees.maxPriorityFeePerGas)],
    ['eth_simulateV1', method('eth', p.validateSimulate, simulate.simulateV1, 'pool')],
    ['eth_subscribe', method('eth', p.validateSubscribe, subscriptions.subscribe)],
    ['eth_unsubscribe', method('eth', p.validateFilterId, subscriptions.unsubscribe)],
    ['eth_getLogs', method('eth', p.validateLogs, logs.getLogs)],
    ['eth_newFilter', method('eth', p.validateLogs, logs.newFilter)],
    ['eth_newBlockFilter', method('eth', p.validateNoParams, logs.newBlockFilter)],
    ['eth_newPendingTransactionFilter', method('eth', p.validateNoParams, logs.newPendingTransactionFilter)],
    ['eth_getFilterChanges', method('eth', p.validateFilterId, logs.getFilterChanges)],
    ['eth_getFilterLogs', method('eth', p.validateFilterId, logs.getFilterLogs)],
    ['eth_uninstallFilter', method('eth', p.validateFilterId, logs.uninstallFilter)],
    ['eth_call', method('eth', p.validateCall, call.call, 'pool')],
    ['eth_estimateGas', method('eth', p.validateEstimate, call.estimateGas, 'pool')],
    ['eth_createAccessList', method('eth', p.validateAccessList, call.createAccessList, 'pool')],
    ['eth_getStorageValues', method('eth', p.validateStorageValues, state.storageValues)],
    ['eth_getProof', method('eth', p.validateProof, state.proof, 'pool')],
    ['debug_traceTransaction', method('debug', p.validateTraceTx, trace.traceTransaction, 'pool')],
    ['debug_traceBlockByNumber', method('debug', p.validateTraceBlock, trace.traceBlock, 'pool')],
    ['debug_traceBlockByHash', method('debug', p.validateTraceBlock, trace.traceBlock, 'pool')],
    ['debug_traceCall', method('debug', p.validateTraceCall, trace.traceCall, 'pool')],
    ['debug_getRawHeader', method('debug', p.validateBlockReceipts, debug.rawHeader)],
    ['debug_getRawBlock', method('debug', p.validateBlockReceipts, debug.rawBlock)],
    ['debug_getRawReceipts', method('debug', p.validateBlockReceipts, debug.rawReceipts)],
    ['debug_getRawTransaction', method('debug', p.validateByHash, debug.rawTransaction)],
    ['net_version', method('net', p.validateNoParams, cfg.netVersion)],
    ['web3_clientVersion', method('web3', p.validateNoParams, cfg.clientVersion)],
    ['eth_sendRawTransaction', method('eth', p.validateRawTx, txs.sendRawTransaction, 'pool')],
    ['engine_newPayloadV1', method('engine', e.validateNewPayloadV1, engine.newPayloadV1, 'pool')],
    ['engine_newPayloadV2', method('engine', e.validateNewPayloadV1, engine.newPayloadV2, 'pool')],
    ['engine_newPayloadV3', method('engine', e.validateNewPayloadV3, engine.newPayloadV3, 'pool')],
    ['engine_newPayloadV4', method('engine', e.validateNewPayloadV4, engine.newPayloadV4, 'pool')],
    ['engine_forkchoiceUpdatedV1', method('engine', e.validateForkchoiceUpdated, engine.forkchoiceUpdatedV1, 'pool')],
    ['engine_forkchoiceUpdatedV2', method('engine', e.validateForkchoiceUpdated, engine.forkchoiceUpdatedV2, 'pool')],
    ['engine_forkchoiceUpdatedV3', method('engine', e.validateForkchoiceUpdated, engine.forkchoiceUpdatedV3, 'pool')],
    ['engine_getPayloadV1', method('engine', e.validateGetPayload, engine.getPayloadV1)],
    ['engine_getPayloadV2', method('engine', e.validateGetPayload, engine.getPayloadV2)],
    ['engine_getPayloadV3', method('engine', e.validateGetPayload, engine.getPayloadV3)],
    ['engine_getPayloadV4', method('engine', e.validateGetPayload, engine.getPayloadV4)],
    ['engine_getPayloadV5', method('engine', e.validateGetPayload, engine.getPayloadV5)],
    ['engine_getBlobsV1', method('engine', e.validateHashList, engine.getBlobsV1)],
    ['engine_getBlobsV2', method('engine', e.validateHashList, engine.getBlobsV2)],
    ['engine_getPayloadBodiesByHashV1', method('engine', e.validateHashList, engine.payloadBodiesByHashV1)],
    ['engine_getPayloadBodiesByRangeV1', method('engine', e.validatePayloadBodiesByRange, engine.payloadBodiesByRangeV1)],
    ['engine_exchangeCapabilities', method('engine', e.validateExchangeCapabilities, engine.exchangeCapabilities)],
    ['engine_getClientVersionV1', method('engine', e.validateClientVersion, engine.getClientVersionV1)],
    ['testing_buildBlockV1', method('testing', e.validateBuildBlock, testing.buildBlockV1, 'pool')],
  ]) satisfies MethodTable
}
