import { keccak256 } from '../crypto/keccak.js'
import type { BlockParts } from './blockParts.js'
import { arr, h, obj, q } from './json.js'

/**
 * eth_getBlockBy* fields other than `transactions`, as the text of a JSON object without its closing brace, so that
 * a reply appends `,"transactions":[…]}` with hashes or full objects.
 */
export function blockJsonPrefix(block: BlockParts, size: number): string {
  const hd = block.header
  const full = obj([
    ['baseFeePerGas', hd.baseFee === undefined ? undefined : q(hd.baseFee)],
    ['blobGasUsed', hd.blobGasUsed === undefined ? undefined : q(hd.blobGasUsed)],
    ['difficulty', q(hd.difficulty)],
    ['excessBlobGas', hd.excessBlobGas === undefined ? undefined : q(hd.excessBlobGas)],
    ['extraData', h(hd.extraData)],
    ['gasLimit', q(hd.gasLimit)],
    ['gasUsed', q(hd.gasUsed)],
    ['hash', h(block.hash)],
    ['logsBloom', h(hd.logsBloom)],
    ['miner', h(hd.coinbase)],
    ['mixHash', h(hd.mixHash)],
    ['nonce', h(hd.nonce)],
    ['number', q(hd.number)],
    ['parentBeaconBlockRoot', hd.parentBeaconBlockRoot === undefined ? undefined : h(hd.parentBeaconBlockRoot)],
    ['parentHash', h(hd.parentHash)],
    ['receiptsRoot', h(hd.receiptsRoot)],
    ['requestsHash', hd.requestsHash === undefined ? undefined : h(hd.requestsHash)],
    ['sha3Uncles', h(hd.uncleHash)],
    ['size', q(size)],
    ['stateRoot', h(hd.stateRoot)],
    ['timestamp', q(hd.timestamp)],
    ['transactionsRoot', h(hd.transactionsRoot)],
    ['uncles', arr(block.uncles.map((u) => h(keccak256(u))))],
    [
      'withdrawals',
      block.withdrawals === undefined
        ? undefined
        : arr(
            block.withdrawals.map((w) =>
              obj([
                ['index', q(w.index)],
                ['validatorIndex', q(w.validatorIndex)],
                ['address', h(w.address)],
                ['amount', q(w.amount)],
              ]),
            ),
          ),
    ],
    ['withdrawalsRoot', hd.withdrawalsRoot === undefined ? undefined : h(hd.withdrawalsRoot)],
  ])
  return full.slice(0, -1)
}

export function blockJsonWithTransactions(prefix: string, transactions: string[]): string {
  return `${prefix},"transactions":[${transactions.join(',')}]}`
}

/** A block's header fields as geth's eth_getHeaderBy* and newHeads give them: the block object less body and size. */
export function headerJson(prefix: string): Record<string, unknown> {
  const block = JSON.parse(`${prefix}}`) as Record<string, unknown>
  delete block.size
  delete block.uncles
  delete block.withdrawals
  return block
}
