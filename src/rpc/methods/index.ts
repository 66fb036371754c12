import { type MethodTable, method } from '../methodTable.js'
import * as p from '../wire/ethParams.js'
import * as reads from './chainReads.js'
import * as cfg from './config.js'
import * as state from './state.js'

/** Every method Sponge serves on its HTTP endpoint, by wire name. Engine and testing methods join in part 2. */
export function ethMethods(): Map<string, ReturnType<typeof method>> {
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
    ['net_version', method('net', p.validateNoParams, cfg.netVersion)],
    ['web3_clientVersion', method('web3', p.validateNoParams, cfg.clientVersion)],
  ]) satisfies MethodTable
}
