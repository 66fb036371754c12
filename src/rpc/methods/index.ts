import { type MethodDef, entry, tableOf } from '../methodTable.js'
import * as e from '../../wire/engineParams.js'
import * as p from '../../wire/ethParams.js'
import * as reads from './chainReads.js'
import * as call from './call.js'
import * as cfg from './config.js'
import * as debug from './debug.js'
import * as devChain from './devChain.js'
import * as fees from './fees.js'
import * as fill from './fill.js'
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
export function allMethods(): Map<string, MethodDef> {
  return tableOf([
    entry('eth_chainId', 'eth', p.validateNoParams, reads.chainId),
    entry('eth_blockNumber', 'eth', p.validateNoParams, reads.blockNumber),
    entry('eth_config', 'eth', p.validateNoParams, cfg.config),
    entry('eth_getBlockByNumber', 'eth', p.validateBlockByNumber, reads.blockByNumber),
    entry('eth_getBlockByHash', 'eth', p.validateBlockByHash, reads.blockByHash),
    entry('eth_getTransactionByHash', 'eth', p.validateByHash, reads.txByHash, 'thread', reads.keptTx),
    entry('eth_getTransactionByBlockNumberAndIndex', 'eth', p.validateTxByNumberAndIndex, reads.txByBlockNumberAndIndex),
    entry('eth_getTransactionByBlockHashAndIndex', 'eth', p.validateTxByHashAndIndex, reads.txByBlockHashAndIndex),
    entry('eth_getTransactionReceipt', 'eth', p.validateByHash, reads.receipt, 'thread', reads.keptReceipt),
    entry('eth_getBlockReceipts', 'eth', p.validateBlockReceipts, reads.blockReceipts),
    entry('eth_getBlockTransactionCountByNumber', 'eth', p.validateBlockNumber, reads.txCountByNumber),
    entry('eth_getBlockTransactionCountByHash', 'eth', p.validateByHash, reads.txCountByHash),
    entry('eth_getBalance', 'eth', p.validateAccount, state.balance, 'thread', state.keptBalance),
    entry('eth_getCode', 'eth', p.validateAccount, state.code, 'thread', state.keptCode),
    entry('eth_getStorageAt', 'eth', p.validateStorage, state.storageAt, 'thread', state.keptStorageAt),
    entry('eth_getTransactionCount', 'eth', p.validateAccount, state.transactionCount, 'thread', state.keptTransactionCount),
    entry('eth_blobBaseFee', 'eth', p.validateNoParams, fees.blobBaseFee),
    entry('eth_baseFee', 'eth', p.validateNoParams, fees.baseFee),
    entry('eth_capabilities', 'eth', p.validateNoParams, node.capabilities),
    entry('eth_feeHistory', 'eth', p.validateFeeHistory, fees.feeHistory),
    entry('eth_syncing', 'eth', p.validateNoParams, node.syncing),
    entry('eth_mining', 'eth', p.validateNoParams, node.mining),
    entry('eth_hashrate', 'eth', p.validateNoParams, node.hashrate),
    entry('eth_coinbase', 'eth', p.validateNoParams, node.coinbase),
    entry('eth_protocolVersion', 'eth', p.validateNoParams, node.protocolVersion),
    entry('eth_accounts', 'eth', p.validateNoParams, node.accounts),
    entry('eth_getUncleCountByBlockNumber', 'eth', p.validateBlockNumber, node.uncleCountByNumber),
    entry('eth_getUncleCountByBlockHash', 'eth', p.validateByHash, node.uncleCountByHash),
    entry('eth_getUncleByBlockNumberAndIndex', 'eth', p.validateTxByNumberAndIndex, node.uncleByNumberAndIndex),
    entry('eth_getUncleByBlockHashAndIndex', 'eth', p.validateTxByHashAndIndex, node.uncleByHashAndIndex),
    entry('eth_getHeaderByNumber', 'eth', p.validateBlockNumber, node.headerByNumber),
    entry('eth_getHeaderByHash', 'eth', p.validateByHash, node.headerByHash),
    entry('net_listening', 'net', p.validateNoParams, node.listening),
    entry('net_peerCount', 'net', p.validateNoParams, node.peerCount),
    entry('web3_sha3', 'web3', p.validateSha3, node.sha3),
    entry('eth_sendTransaction', 'eth', p.validateSendTransaction, wallet.sendTransaction, 'pool'),
    entry('eth_fillTransaction', 'eth', p.validateSendTransaction, fill.fillTransaction, 'pool'),
    entry('eth_sign', 'eth', p.validateSign, wallet.sign),
    entry('personal_sign', 'eth', p.validatePersonalSign, wallet.personalSign),
    entry('eth_signTypedData_v4', 'eth', p.validateSignTypedData, wallet.signTypedData),
    entry('evm_mine', 'evm', p.validateMine, devChain.mine),
    entry('evm_snapshot', 'evm', p.validateNoParams, devChain.snapshot),
    entry('evm_revert', 'evm', p.validateRevert, devChain.revert),
    entry('evm_setNextBlockTimestamp', 'evm', p.validateTimestamp, devChain.setNextBlockTimestamp),
    entry('txpool_status', 'txpool', p.validateNoParams, txpool.status),
    entry('txpool_content', 'txpool', p.validateNoParams, txpool.content),
    entry('txpool_contentFrom', 'txpool', p.validateAddress, txpool.contentFrom),
    entry('txpool_inspect', 'txpool', p.validateNoParams, txpool.inspect),
    entry('eth_pendingTransactions', 'eth', p.validateNoParams, txpool.pendingTransactions),
    entry('eth_gasPrice', 'eth', p.validateNoParams, fees.gasPrice),
    entry('eth_maxPriorityFeePerGas', 'eth', p.validateNoParams, fees.maxPriorityFeePerGas),
    entry('eth_simulateV1', 'eth', p.validateSimulate, simulate.simulateV1, 'pool'),
    entry('eth_subscribe', 'eth', p.validateSubscribe, subscriptions.subscribe),
    entry('eth_unsubscribe', 'eth', p.validateFilterId, subscriptions.unsubscribe),
    entry('eth_getLogs', 'eth', p.validateLogs, logs.getLogs),
    entry('eth_newFilter', 'eth', p.validateLogs, logs.newFilter, 'threadAsClient'),
    entry('eth_newBlockFilter', 'eth', p.validateNoParams, logs.newBlockFilter, 'threadAsClient'),
    entry('eth_newPendingTransactionFilter', 'eth', p.validateNoParams, logs.newPendingTransactionFilter, 'threadAsClient'),
    entry('eth_getFilterChanges', 'eth', p.validateFilterId, logs.getFilterChanges),
    entry('eth_getFilterLogs', 'eth', p.validateFilterId, logs.getFilterLogs),
    entry('eth_uninstallFilter', 'eth', p.validateFilterId, logs.uninstallFilter),
    entry('eth_call', 'eth', p.validateCall, call.call, 'threadFirst'),
    entry('eth_estimateGas', 'eth', p.validateEstimate, call.estimateGas, 'threadFirst'),
    entry('eth_createAccessList', 'eth', p.validateAccessList, call.createAccessList, 'threadFirst'),
    entry('eth_getStorageValues', 'eth', p.validateStorageValues, state.storageValues),
    entry('eth_getProof', 'eth', p.validateProof, state.proof, 'pool'),
    entry('debug_traceTransaction', 'debug', p.validateTraceTx, trace.traceTransaction, 'threadFirst'),
    entry('debug_traceBlockByNumber', 'debug', p.validateTraceBlock, trace.traceBlock, 'threadFirst'),
    entry('debug_traceBlockByHash', 'debug', p.validateTraceBlock, trace.traceBlock, 'threadFirst'),
    entry('debug_traceCall', 'debug', p.validateTraceCall, trace.traceCall, 'threadFirst'),
    entry('debug_getRawHeader', 'debug', p.validateBlockReceipts, debug.rawHeader),
    entry('debug_getRawBlock', 'debug', p.validateBlockReceipts, debug.rawBlock),
    entry('debug_getRawReceipts', 'debug', p.validateBlockReceipts, debug.rawReceipts),
    entry('debug_getRawTransaction', 'debug', p.validateByHash, debug.rawTransaction),
    entry('net_version', 'net', p.validateNoParams, cfg.netVersion),
    entry('web3_clientVersion', 'web3', p.validateNoParams, cfg.clientVersion),
    entry('eth_sendRawTransaction', 'eth', p.validateRawTx, txs.sendRawTransaction, 'pool'),
    entry('engine_newPayloadV1', 'engine', e.validateNewPayloadV1, engine.newPayloadV1, 'pool'),
    entry('engine_newPayloadV2', 'engine', e.validateNewPayloadV1, engine.newPayloadV2, 'pool'),
    entry('engine_newPayloadV3', 'engine', e.validateNewPayloadV3, engine.newPayloadV3, 'pool'),
    entry('engine_newPayloadV4', 'engine', e.validateNewPayloadV4, engine.newPayloadV4, 'pool'),
    entry('engine_forkchoiceUpdatedV1', 'engine', e.validateForkchoiceUpdated, engine.forkchoiceUpdatedV1, 'pool'),
    entry('engine_forkchoiceUpdatedV2', 'engine', e.validateForkchoiceUpdated, engine.forkchoiceUpdatedV2, 'pool'),
    entry('engine_forkchoiceUpdatedV3', 'engine', e.validateForkchoiceUpdated, engine.forkchoiceUpdatedV3, 'pool'),
    entry('engine_getPayloadV1', 'engine', e.validateGetPayload, engine.getPayloadV1),
    entry('engine_getPayloadV2', 'engine', e.validateGetPayload, engine.getPayloadV2),
    entry('engine_getPayloadV3', 'engine', e.validateGetPayload, engine.getPayloadV3),
    entry('engine_getPayloadV4', 'engine', e.validateGetPayload, engine.getPayloadV4),
    entry('engine_getPayloadV5', 'engine', e.validateGetPayload, engine.getPayloadV5),
    entry('engine_getBlobsV1', 'engine', e.validateHashList, engine.getBlobsV1),
    entry('engine_getBlobsV2', 'engine', e.validateHashList, engine.getBlobsV2),
    entry('engine_getPayloadBodiesByHashV1', 'engine', e.validateHashList, engine.payloadBodiesByHashV1),
    entry('engine_getPayloadBodiesByRangeV1', 'engine', e.validatePayloadBodiesByRange, engine.payloadBodiesByRangeV1),
    entry('engine_exchangeCapabilities', 'engine', e.validateExchangeCapabilities, engine.exchangeCapabilities),
    entry('engine_getClientVersionV1', 'engine', e.validateClientVersion, engine.getClientVersionV1),
    entry('testing_buildBlockV1', 'testing', e.validateBuildBlock, testing.buildBlockV1, 'pool'),
  ])
}
