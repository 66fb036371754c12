import { isBlob4844Tx } from '@ethereumjs/tx'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { executionPayloadJson } from '../codecs/payload.js'
import { partsOfBlock } from '../codecs/blockParts.js'
import { BlockExecutor } from '../exec/executor.js'
import { genesisBlock } from '../state/genesis.js'
import { importChain } from '../import/importChain.js'
import { decodeChainFile } from '../chain/chainFile.js'
import { readHeader } from '../store/blockCodec.js'
import { ChainStore } from '../store/chainStore.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { type TestNode, ZERO32, startTestNode } from '../testing/testNode.js'
import { bytesToHex } from '../util/hex.js'
import { payloadOfFork } from './payloadVersions.js'

// The conformance chain crosses the merge at block 36, then Shanghai, Cancun, Prague, Osaka and BPO1/2: a node that
// imports the pre-merge blocks and is fed every later block through the newPayload version of its fork (with a
// forkchoiceUpdated of the matching version after each) ends where `sponge import` ends, receipt for receipt.

const genesis = readGenesisFile(rpcCompatPath('genesis.json'))
const spec = new ChainSpec(genesis)
const blocks = decodeChainFile(spec, rpcCompatPath('chain.rlp'))
/** Execution requests of each Prague-or-later block: not in the chain file, so taken from executing it. */
const requestsOf = new Map<string, string[]>()

let follower: TestNode
let reference: TestNode
beforeAll(async () => {
  const refDir = tempDatadir('follow-ref')
  const ref = new ChainStore(refDir)
  await genesisBlock(spec, ref)
  const executor = await BlockExecutor.create(spec, ref)
  for (const block of blocks) {
    const { record, requests: all } = await executor.execute(block, readHeader(spec, ref, block.header.parentHash)!)
    ref.putCanonicalHeadSync(record)
    const requests = all.filter((r) => r.length > 1).map((r) => bytesToHex(r))
    requestsOf.set(bytesToHex(block.hash()), requests)
  }
  await ref.close()
  const folDir = tempDatadir('follow')
  const fol = new ChainStore(folDir)
  await genesisBlock(spec, fol)
  await importChain(
    spec,
    fol,
    blocks.filter((b) => !spec.isPostMerge(b.header.number)),
  )
  await fol.close()
  ;[follower, reference] = await Promise.all([startTestNode({ genesis, datadir: folDir }), startTestNode({ genesis, datadir: refDir })])
}, 120_000)
afterAll(async () => {
  await Promise.all([follower.close(), reference.close()])
})

describe('following the conformance chain through the engine', () => {
  it('takes every post-merge block through newPayloadV1-V4 and ends at the same head, blocks and receipts', async () => {
    const postMerge = blocks.filter((b) => spec.isPostMerge(b.header.number))
    expect(postMerge.length).toBeGreaterThan(10)
    const used = new Set<string>()
    for (const block of postMerge) {
      const h = block.header
      const fork = spec.forkAt(h.number, h.timestamp)
      const version = fork === 'paris' ? 1 : fork === 'shanghai' ? 2 : fork === 'cancun' ? 3 : 4
      const payload = payloadOfFork(
        spec,
        executionPayloadJson(
          partsOfBlock(block),
          3,
          block.transactions.map((tx) => tx.serialize()),
        ),
        h.number,
        h.timestamp,
      )
      const hashes = block.transactions.flatMap((tx) => (isBlob4844Tx(tx) ? tx.blobVersionedHashes.map((x) => x.toLowerCase()) : []))
      const root = h.parentBeaconBlockRoot === undefined ? ZERO32 : bytesToHex(h.parentBeaconBlockRoot)
      const params =
        version === 1 || version === 2
          ? [payload]
          : version === 3
            ? [payload, hashes, root]
            : [payload, hashes, root, requestsOf.get(bytesToHex(block.hash()))!]
      const st = await follower.engine<{ status: string; validationError: string | null }>(`engine_newPayloadV${version}`, params)
      expect(st.result, `block ${h.number} (${fork}) through newPayloadV${version}`).toMatchObject({ status: 'VALID' })
      const fcuVersion = Math.min(version, 3)
      const hash = bytesToHex(block.hash())
      const moved = await follower.engine<{ payloadStatus: { status: string } }>(`engine_forkchoiceUpdatedV${fcuVersion}`, [
        { headBlockHash: hash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
        null,
      ])
      expect(moved.result?.payloadStatus.status).toBe('VALID')
      used.add(`V${version}`)
    }
    expect([...used].sort()).toEqual(['V1', 'V2', 'V3', 'V4'])
    const last = bytesToHex(blocks.at(-1)!.hash())
    expect((await follower.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result?.hash).toBe(last)
    for (const block of blocks) {
      const n = `0x${block.header.number.toString(16)}`
      const [a, b] = await Promise.all([follower.http('eth_getBlockReceipts', [n]), reference.http('eth_getBlockReceipts', [n])])
      expect(a.result, `receipts of block ${block.header.number}`).toEqual(b.result)
      const [x, y] = await Promise.all([follower.http('eth_getBlockByNumber', [n, true]), reference.http('eth_getBlockByNumber', [n, true])])
      expect(x.result).toEqual(y.result)
    }
  })
})
