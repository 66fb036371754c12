import type { BlockParts } from './blockParts.js'
import { bytesToHex, toQuantity } from '../util/hex.js'

/**
 * ExecutionPayloadV1/V2/V3 of a block, as engine_getPayload* and testing_buildBlockV1 return it, with its
 * transactions' bytes.
 */
export function executionPayloadJson(block: BlockParts, version: 1 | 2 | 3, txBytes: readonly Uint8Array[]): Record<string, unknown> {
  const h = block.header
  const out: Record<string, unknown> = {
    parentHash: bytesToHex(h.parentHash),
    feeRecipient: bytesToHex(h.coinbase),
    stateRoot: bytesToHex(h.stateRoot),
    receiptsRoot: bytesToHex(h.receiptsRoot),
    logsBloom: bytesToHex(h.logsBloom),
    prevRandao: bytesToHex(h.mixHash),
    blockNumber: toQuantity(h.number),
    gasLimit: toQuantity(h.gasLimit),
    gasUsed: toQuantity(h.gasUsed),
    timestamp: toQuantity(h.timestamp),
    extraData: bytesToHex(h.extraData),
    baseFeePerGas: toQuantity(h.baseFee ?? 0n),
    blockHash: bytesToHex(block.hash),
    transactions: txBytes.map((raw) => bytesToHex(raw)),
  }
  if (version >= 2) {
    out.withdrawals = (block.withdrawals ?? []).map((w) => ({
      index: toQuantity(w.index),
      validatorIndex: toQuantity(w.validatorIndex),
      address: bytesToHex(w.address),
      amount: toQuantity(w.amount),
    }))
  }
  if (version >= 3) {
    out.blobGasUsed = toQuantity(h.blobGasUsed ?? 0n)
    out.excessBlobGas = toQuantity(h.excessBlobGas ?? 0n)
  }
  return out
}
