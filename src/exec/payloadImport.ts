import { type Block, createBlockFromExecutionPayload } from '@ethereumjs/block'
import { isBlob4844Tx } from '@ethereumjs/tx'
import type { ChainSpec } from '../chain/spec.js'
import { requestsHash } from '../engine/requests.js'
import type { ExecutionPayloadV3 } from '../rpc/wire/engineParams.js'
import { readHeader } from '../store/blockCodec.js'
import type { ChainStore } from '../store/chainStore.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import type { BlockExecutor } from './executor.js'
import { InvalidBlockError } from './headerValidation.js'

export type PayloadStatusName = 'VALID' | 'INVALID' | 'SYNCING' | 'ACCEPTED'

export interface PayloadStatus {
  status: PayloadStatusName
  latestValidHash: string | null
  validationError: string | null
}

export interface NewPayloadInput {
  payload: ExecutionPayloadV3
  versionedHashes: string[]
  parentBeaconBlockRoot: string
  executionRequests: string[]
}

const invalid = (latestValidHash: string | null, why: string): PayloadStatus => ({
  status: 'INVALID',
  latestValidHash,
  validationError: why,
})

/** The block a payload describes, with its hash recomputed from the payload, beacon root and requests hash. */
export async function payloadToBlock(spec: ChainSpec, input: NewPayloadInput): Promise<Block> {
  const p = input.payload
  const common = spec.commonAt(BigInt(p.blockNumber), BigInt(p.timestamp))
  return createBlockFromExecutionPayload(
    {
      ...p,
      parentBeaconBlockRoot: input.parentBeaconBlockRoot as `0x${string}`,
      requestsHash: bytesToHex(requestsHash(input.executionRequests.map(hexToBytes))),
    } as never,
    { common },
  )
}

function versionedHashesMatch(block: Block, expected: string[]): boolean {
  const actual = block.transactions.flatMap((tx) => (isBlob4844Tx(tx) ? tx.blobVersionedHashes : []))
  return actual.length === expected.length && actual.every((h, i) => h.toLowerCase() === expected[i])
}

/**
 * engine_newPayload's work, run in a worker: rebuild and hash the block, check blob hashes, then execute it on its
 * parent and store it (not canonical). Invalid blocks are remembered with their latest valid ancestor.
 */
export async function importPayload(
  spec: ChainSpec,
  store: ChainStore,
  executor: BlockExecutor,
  input: NewPayloadInput,
): Promise<PayloadStatus> {
  let block: Block
  try {
    block = await payloadToBlock(spec, input)
  } catch (e) {
    return invalid(null, e instanceof Error ? e.message : String(e))
  }
  if (!versionedHashesMatch(block, input.versionedHashes)) {
    return invalid(null, 'blob versioned hashes do not match the block\'s blob transactions')
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
    const { record } = await executor.execute(block, parent)
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
