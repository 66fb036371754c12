import type { Block } from '@ethereumjs/block'
import { bytesToHex, toQuantity } from '../util/hex.js'

/**
 * ExecutionPayloadV1/V2/V3 of a block, as engine_getPayload* and testing_buildBlockV1 return it; `txBytes`, its
 * transactions' bytes when the block was made without transaction objects.
 */
export function executionPayloadJson(block: Block, version: 1 | 2 | 3, txBytes?: readonly Uint8Array[]): Record<string, unknown> {
  const h = block.header
  const out: Record<string, unknown> = {
    parentHash: bytesToHex(h.parentHash),
    feeRecipient: bytesToHex(h.coinbase.bytes),
    stateRoot: bytesToHex(h.stateRoot),
    receiptsRoot: bytesToHex(h.receiptTrie),
    logsBloom: bytesToHex(h.logsBloom),
    prevRandao: bytesToHex(h.mixHash),
    blockNumber: toQuantity(h.number),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    timestamp: toQuantity(h.timestamp),
    extraData: bytesToHex(h.extraData),
    baseFeePerGas: toQuantity(h.baseFeePerGas ?? 0n),
    blockHash: bytesToHex(block.hash()),
    transactions: (txBytes ?? block.transactions.map((tx) => tx.serialize())).map((raw) => bytesToHex(raw)),
  }
  if (version >= 2) {
    out.withdrawals = (block.withdrawals ?? []).map((w) => ({
      index: toQuantity(w.index),
      validatorIndex: toQuantity(w.validatorIndex),
      address: bytesToHex(w.address.bytes),
      amount: toQuantity(w.amount),
    }))
  }
  if (version >= 3) {
    out.blobGasUsed = toQuantity(h.blobGasUsed ?? 0n)
    out.excessBlobGas = toQuantity(h.excessBlobGas ?? 0n)
  }
  return out
}
