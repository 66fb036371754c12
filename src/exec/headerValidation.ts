import type { BlockHeader } from '@ethereumjs/block'
import type { ChainSpec } from '../chain/spec.js'

import { InvalidBlockError } from './errors.js'

/**
 * Consensus checks of a header against its parent that EthereumJS's runBlock leaves to the blockchain: number,
 * time, gas limit, base fee, blob gas and, before the merge, difficulty. (The ethash seal is not verified.)
 */
export function validateHeaderAgainstParent(spec: ChainSpec, header: BlockHeader, parent: BlockHeader): void {
  const fail = (why: string): never => {
    throw new InvalidBlockError(why)
  }
  if (header.number !== parent.number + 1n) fail(`invalid number: ${header.number}, parent ${parent.number}`)
  if (header.timestamp <= parent.timestamp) {
    fail(`invalid timestamp: ${header.timestamp} not after parent's ${parent.timestamp}`)
  }
  if (header.extraData.length > 32) fail(`extraData too long: ${header.extraData.length} bytes`)
  if (header.gasUsed > header.gasLimit) fail(`gasUsed ${header.gasUsed} exceeds gasLimit ${header.gasLimit}`)
  try {
    header.validateGasLimit(parent)
  } catch (e) {
    fail(`invalid gasLimit: ${(e as Error).message}`)
  }
  const c = header.common
  if (c.isActivatedEIP(1559)) {
    const expected = parent.common.isActivatedEIP(1559) ? parent.calcNextBaseFee() : c.param('initialBaseFee')
    if (header.baseFeePerGas !== expected) fail(`invalid baseFee: have ${header.baseFeePerGas}, want ${expected}`)
  }
  if (c.isActivatedEIP(4844)) {
    const expected = parent.common.isActivatedEIP(4844) ? parent.calcNextExcessBlobGas(c) : 0n
    if (header.excessBlobGas !== expected) {
      fail(`invalid excessBlobGas: have ${header.excessBlobGas}, want ${expected}`)
    }
    const perBlob = c.param('blobGasPerBlob')
    const max = c.getBlobGasSchedule().maxBlobGasPerBlock
    const used = header.blobGasUsed ?? 0n
    if (used % perBlob !== 0n) fail(`invalid blobGasUsed: ${used} is not a multiple of ${perBlob}`)
    if (used > max) fail(`invalid blobGasUsed: ${used} exceeds the maximum ${max}`)
  }
  if (!spec.isPostMerge(header.number)) {
    const expected = header.ethashCanonicalDifficulty(parent)
    if (header.difficulty !== expected) fail(`invalid difficulty: have ${header.difficulty}, want ${expected}`)
  }
}
