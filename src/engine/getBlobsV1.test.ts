import { devBlobTx } from '../testing/blobTx.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { type TestNode, ZERO32, startTestNode } from '../testing/testNode.js'
import { bytesToHex } from '../util/hex.js'

// engine_getBlobsV1 on a Cancun chain: a pooled blob transaction's blob and its KZG proof by versioned hash.

let n: TestNode
beforeAll(async () => {
  const genesis = devGenesis()
  delete genesis.config.pragueTime
  delete genesis.config.osakaTime
  n = await startTestNode({ genesis })
})
afterAll(async () => {
  await n.close()
})

describe('engine_getBlobsV1', () => {
  it('serves pooled blobs with their proofs, null for unknown hashes, and refuses over 128', async () => {
    const common = n.spec.commonAt(1n, 100n)
    const tx = devBlobTx(common, 7, 'cancun blob')
    expect((await n.http('eth_sendRawTransaction', [bytesToHex(tx.serializeNetworkWrapper())])).error).toBeUndefined()
    const versioned = tx.blobVersionedHashes[0]!.toLowerCase()
    const r = (await n.engine<({ blob: string; proof: string } | null)[]>('engine_getBlobsV1', [[ZERO32, versioned]])).result!
    expect(r[0]).toBeNull()
    expect(r[1]).toEqual({ blob: tx.blobs![0]!.toLowerCase(), proof: tx.kzgProofs![0]!.toLowerCase() })
    expect((await n.engine('engine_getBlobsV1', [Array.from({ length: 129 }, () => ZERO32)])).error?.code).toBe(-38004)
    // Before Osaka there are no cell proofs to serve: V2 answers null.
    expect((await n.engine('engine_getBlobsV2', [[versioned]])).result).toBeNull()
  })
})
