import type { SignedTx } from '../../exec/blockTx.js'
import type { ChainSpec } from '../../chain/spec.js'
import { readHeader } from '../../store/blockCodec.js'
import type { ChainStore } from '../../store/chainStore.js'
import { bytesToHex } from '../../util/hex.js'
import type { BlockExecutor } from '../../exec/executor.js'
import { InvalidBlockError } from '../../exec/errors.js'
import { BlockHashMismatchError, type NewPayloadInput, type PayloadBlock, payloadToBlock } from './payloadBlock.js'

export type PayloadStatusName = 'VALID' | 'INVALID' | 'SYNCING' | 'ACCEPTED' | 'INVALID_BLOCK_HASH'

export interface PayloadStatus {
  status: PayloadStatusName
  latestValidHash: string | null
  validationError: string | null
}

const invalid = (latestValidHash: string | null, why: string): PayloadStatus => ({
  status: 'INVALID',
  latestValidHash,
  validationError: why,
})

function versionedHashesMatch(txs: readonly SignedTx[], expected: string[] | undefined): boolean {
  // Before V3 there are none to compare with (and no blob transactions run before Cancun)
  if (expected === undefined) return true
  // In a loop: flatMap over a full block of transactions without blobs made an array per transaction.
  let at = 0
  for (const tx of txs) {
    for (const h of tx.blobVersionedHashes) if (at >= expected.length || bytesToHex(h) !== expected[at++]) return false
  }
  return at === expected.length
}

/**
 * engine_newPayload's work, run in a worker: rebuild and hash the block, check blob hashes, then execute it on its
 * parent and store it (not canonical). Invalid blocks are remembered with their latest valid ancestor.
 */
export async function importPayload(spec: ChainSpec, store: ChainStore, executor: BlockExecutor, input: NewPayloadInput): Promise<PayloadStatus> {
  let decoded: PayloadBlock
  try {
    decoded = await payloadToBlock(spec, input)
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    // V1 tells a wrong block hash apart; from V2 on INVALID supplants INVALID_BLOCK_HASH (shanghai.md).
    if (e instanceof BlockHashMismatchError && input.version === 1) {
      return { status: 'INVALID_BLOCK_HASH', latestValidHash: null, validationError: why }
    }
    return invalid(null, why)
  }
  const { block, txs } = decoded
  if (!versionedHashesMatch(txs, input.versionedHashes)) {
    return invalid(null, "blob versioned hashes do not match the block's blob transactions")
  }
  const hash = block.hash()
  const hashHex = bytesToHex(hash)
  if (store.hasBlock(hash)) return { status: 'VALID', latestValidHash: hashHex, validationError: null }
  const known = store.getInvalid(hash)
  if (known !== undefined) return invalid(known.latestValidHash, known.reason)
  const parentInvalid = store.getInvalid(block.header.parentHash)
  if (parentInvalid !== undefined) {
    const reason = `links to invalid ancestor: ${parentInvalid.reason}`
    store.markInvalidSync(hash, { latestValidHash: parentInvalid.latestValidHash, reason })
    return invalid(parentInvalid.latestValidHash, reason)
  }
  const parent = readHeader(spec, store, block.header.parentHash)
  if (parent === undefined) return { status: 'SYNCING', latestValidHash: null, validationError: null }
  try {
    const { record } = await executor.execute(block, parent, txs, input.senders)
    store.putBlockSync(record)
  } catch (e) {
    if (!(e instanceof InvalidBlockError)) throw e
    const parentHex = bytesToHex(block.header.parentHash)
    const reason = e.message
    store.markInvalidSync(hash, { latestValidHash: parentHex, reason })
    return invalid(parentHex, reason)
  }
  return { status: 'VALID', latestValidHash: hashHex, validationError: null }
}
