import { arr, h, obj, q } from '../codecs/json.js'
import type { HeaderFields } from '../codecs/headerCodec.js'
import type { SimWithdrawal } from './simulateInput.js'

/**
 * A simulated block as eth_getBlockBy* would list it, without `transactions` and its closing brace (the reply adds
 * them and the calls): the fields and order of codecs/block.ts's blockJsonPrefix, so a simulated block reads as a
 * stored one.
 */
export function simBlockJsonPrefix(hd: HeaderFields, hash: Uint8Array, size: number, withdrawals: readonly SimWithdrawal[] | undefined): string {
  const full = obj([
    ['baseFeePerGas', hd.baseFee === undefined ? undefined : q(hd.baseFee)],
    ['blobGasUsed', hd.blobGasUsed === undefined ? undefined : q(hd.blobGasUsed)],
    ['difficulty', q(hd.difficulty)],
    ['excessBlobGas', hd.excessBlobGas === undefined ? undefined : q(hd.excessBlobGas)],
    ['extraData', h(hd.extraData)],
    ['gasLimit', q(hd.gasLimit)],
    ['gasUsed', q(hd.gasUsed)],
    ['hash', h(hash)],
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
    ['uncles', '[]'],
    [
      'withdrawals',
      withdrawals === undefined
        ? undefined
        : arr(
            withdrawals.map((w) =>
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
