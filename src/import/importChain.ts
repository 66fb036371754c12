import type { Block } from '@ethereumjs/block'
import type { ChainSpec } from '../chain/spec.js'
import { readHeader } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import { bytesToHex, equalBytes } from '../util/hex.js'
import { BlockExecutor } from '../exec/executor.js'
import { InvalidBlockError } from '../exec/errors.js'

/** `stored` is false for a block the store already had. */
export type ImportProgress = (done: number, total: number, block: Block, stored: boolean) => void

export class ImportError extends Error {
  constructor(
    readonly blockNumber: bigint,
    readonly blockHash: string,
    readonly reason: string,
  ) {
    super(`bad block ${blockNumber} (${blockHash}): ${reason}`)
  }
}

/**
 * Executes and stores every block of a chain file on top of the store's canonical chain, fully validated. Blocks the
 * store already has are skipped. The first bad block stops the import; everything before it stays stored.
 */
export async function importChain(
  spec: ChainSpec,
  store: ChainStore,
  blocks: Block[],
  onProgress?: ImportProgress,
): Promise<{ imported: number; skipped: number }> {
  const executor = await BlockExecutor.create(spec, store)
  let imported = 0
  let skipped = 0
  for (const [i, block] of blocks.entries()) {
    const hash = block.hash()
    const hashHex = bytesToHex(hash)
    const canonical = store.getCanonicalHash(block.header.number)
    if (canonical !== undefined && equalBytes(canonical, hash)) {
      skipped++
      onProgress?.(i + 1, blocks.length, block, false)
      continue
    }
    const parent = readHeader(spec, store, block.header.parentHash)
    if (parent === undefined) {
      throw new ImportError(block.header.number, hashHex, `unknown parent ${bytesToHex(block.header.parentHash)}`)
    }
    try {
      const { record } = await executor.execute(block, parent)
      store.putCanonicalHeadSync(record)
    } catch (e) {
      if (e instanceof InvalidBlockError) throw new ImportError(block.header.number, hashHex, e.message)
      throw e
    }
    imported++
    onProgress?.(i + 1, blocks.length, block, true)
  }
  return { imported, skipped }
}
