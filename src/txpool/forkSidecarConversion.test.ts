import { RLP } from '@ethereumjs/rlp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { nativeKzg } from '../crypto/kzg.js'
import { devBlobTx } from '../testing/blobTx.js'
import { type TestNode, ZERO32, startTestNode } from '../testing/testNode.js'
import { latestHash, makeHead, payloadAttributes } from '../testing/engineBlocks.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import type { TxPool } from './txPool.js'

// A blob transaction pooled before Osaka keeps its version-0 sidecar (one blob proof per blob), as it should: the next
// block is Prague's. Once the head moves so that the next block is Osaka's, every such sidecar is given its cell
// proofs, as one sent after the fork is (v0SidecarConversion.test.ts): left with its blob proofs, a consensus client's
// Osaka builds would leave it out, and engine_getBlobsV2 could not serve it, until it was evicted.

const OSAKA = 1_000

let n: TestNode
let pool: TxPool
beforeAll(async () => {
  const genesis = devGenesis()
  Object.assign(genesis.config, { osakaTime: OSAKA })
  n = await startTestNode({ genesis, apis: ['eth', 'testing'] })
  pool = n.node.context.txPool!
})
afterAll(async () => {
  await n.close()
})

/** A Prague block at `timestamp` on the head, without the pool's transactions, made the head (testing_buildBlockV1, newPayloadV4, forkchoice). */
async function emptyPragueBlock(timestamp: number): Promise<void> {
  const parent = await latestHash(n)
  const built = await n.http<{ executionPayload: Record<string, unknown>; executionRequests: string[] }>('testing_buildBlockV1', [
    parent,
    payloadAttributes(timestamp),
    [],
    '0x',
  ])
  expect(built.error).toBeUndefined()
  const status = await n.engine<{ status: string }>('engine_newPayloadV4', [
    built.result!.executionPayload,
    [],
    ZERO32,
    built.result!.executionRequests,
  ])
  expect(status.result?.status).toBe('VALID')
  await makeHead(n, built.result!.executionPayload.blockHash as string)
}

describe('a version-0 sidecar pooled before Osaka', () => {
  it('keeps its blob proofs while the next block is Prague’s, and is given its cell proofs once it is Osaka’s', async () => {
    const tx = devBlobTx(n.spec.commonAt(1n, 12n), 6, 'pooled before the fork')
    expect(tx.kzgProofs).toHaveLength(1)
    const sent = await n.http<string>('eth_sendRawTransaction', [bytesToHex(tx.serializeNetworkWrapper())])
    expect(sent.error).toBeUndefined()
    const pooled = pool.get(sent.result!)!
    await pool.cellProofsMade(sent.result!)
    expect(pooled.blobs![0]!.cellProofs).toBe(false)

    // The next block would be at OSAKA - 12: still Prague's.
    await emptyPragueBlock(OSAKA - 24)
    await pool.cellProofsMade(sent.result!)
    expect(pool.get(sent.result!)!.blobs![0]!.cellProofs).toBe(false)

    // Now the block after the head is at OSAKA.
    await emptyPragueBlock(OSAKA - 12)
    await pool.cellProofsMade(sent.result!)
    const converted = pool.get(sent.result!)!
    expect(converted.blobs![0]!.cellProofs).toBe(true)
    const blob = hexToBytes(tx.blobs![0]!)
    expect(converted.blobs![0]!.proofs.map((p) => bytesToHex(p))).toEqual(
      nativeKzg()
        .computeCellsAndKzgProofs(blob)[1]
        .map((p) => bytesToHex(p)),
    )
    // Pooled as the version-1 wrapper: the transaction, then version 1, blobs, commitments, cell proofs.
    const wrapper = RLP.decode(converted.raw.subarray(1)) as Uint8Array[][]
    expect(bytesToHex(wrapper[1] as unknown as Uint8Array)).toBe('0x01')
    expect(wrapper[4]).toHaveLength(128)
  })
})
