import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { TEST_JWT_SECRET, type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'
import { payloadAttributes } from '../testing/engineBlocks.js'
import { signJwt } from './jwt.js'

interface Payload {
  blockHash: string
  parentHash: string
  blockNumber: string
  timestamp: string
  transactions: string[]
  [k: string]: unknown
}
interface Envelope {
  executionPayload: Payload
  blockValue: string
  blobsBundle: { commitments: string[]; proofs: string[]; blobs: string[] }
  executionRequests: string[]
  shouldOverrideBuilder: boolean
}

let a: TestNode
let b: TestNode

beforeAll(async () => {
  ;[a, b] = await Promise.all([startTestNode(), startTestNode()])
})
afterAll(async () => {
  await Promise.all([a.close(), b.close()])
})

async function head(n: TestNode): Promise<{ hash: string; number: string; timestamp: string }> {
  return (await n.http<{ hash: string; number: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false])).result!
}

/** forkchoiceUpdated with attributes then getPayloadV5 on `n`: a block built on `parent`. */
async function build(n: TestNode, parent: string, timestamp: number, feeRecipient = `0x${'11'.repeat(20)}`): Promise<Envelope> {
  const fcu = await n.engine<{ payloadId: string }>('engine_forkchoiceUpdatedV3', [
    { headBlockHash: parent, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
    payloadAttributes(timestamp, { feeRecipient }),
  ])
  expect(fcu.error).toBeUndefined()
  return (await n.engine<Envelope>('engine_getPayloadV5', [fcu.result!.payloadId])).result!
}

const fcu = (n: TestNode, headHash: string, safe = ZERO32, fin = ZERO32) =>
  n.engine<{ payloadStatus: { status: string; latestValidHash: string | null } }>('engine_forkchoiceUpdatedV3', [
    { headBlockHash: headHash, safeBlockHash: safe, finalizedBlockHash: fin },
    null,
  ])

const newPayload = (n: TestNode, p: Payload, hashes: string[] = [], requests: unknown = []) =>
  n.engine<{ status: string; latestValidHash: string | null; validationError: string | null }>('engine_newPayloadV4', [p, hashes, ZERO32, requests])

let t = Math.floor(Date.now() / 1000)
const nextTime = () => ++t

describe('Engine API authentication', () => {
  it('answers 401 without a valid token and runs nothing', async () => {
    expect((await a.engine('eth_chainId', [], 'not-a-token')).status).toBe(401)
    expect((await a.engine('eth_chainId', [], signJwt(Buffer.alloc(32, 1)))).status).toBe(401)
    const stale = signJwt(TEST_JWT_SECRET, Math.floor(Date.now() / 1000) - 120)
    expect((await a.engine('engine_exchangeCapabilities', [[]], stale)).status).toBe(401)
    expect((await a.engine('eth_chainId')).result).toBe('0x539')
  })
  it('serves engine methods only on the authenticated endpoint', async () => {
    expect((await a.http('engine_exchangeCapabilities', [[]])).error?.code).toBe(-32601)
    expect((await a.engine<string[]>('engine_exchangeCapabilities', [[]])).result).toContain('engine_newPayloadV4')
  })
})

describe('payload round trip between two nodes', () => {
  it('a block built by one node is VALID on another, and both serve identical receipts', async () => {
    const tx = await a.http<string>('eth_sendRawTransaction', [signedTransfer(a.spec, 0, 0)])
    expect(tx.error).toBeUndefined()
    const genesis = (await head(a)).hash
    const env = await build(a, genesis, nextTime())
    expect(env.executionPayload.transactions).toHaveLength(1)
    expect(BigInt(env.blockValue)).toBe(21_000n * 1_000_000_000n)
    expect(env.shouldOverrideBuilder).toBe(false)
    const status = await newPayload(b, env.executionPayload)
    expect(status.result).toEqual({ status: 'VALID', latestValidHash: env.executionPayload.blockHash, validationError: null })
    for (const n of [a, b]) expect((await fcu(n, env.executionPayload.blockHash)).result?.payloadStatus.status).toBe('VALID')
    const ra = await fetchRaw(a, tx.result!)
    const rb = await fetchRaw(b, tx.result!)
    expect(ra).toBe(rb)
    expect(JSON.parse(ra).result.status).toBe('0x1')
    expect((await a.http('eth_getTransactionByHash', [tx.result])).result).toEqual((await b.http('eth_getTransactionByHash', [tx.result])).result)
  })
})

async function fetchRaw(n: TestNode, hash: string): Promise<string> {
  const url = `http://127.0.0.1:${n.node.httpPort}`
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_getTransactionReceipt', params: [hash] }),
  })
  return res.text()
}

describe('engine_newPayloadV4 errors', () => {
  it('refuses malformed execution requests with -32602', async () => {
    const env = await build(a, (await head(a)).hash, nextTime())
    const p = env.executionPayload
    expect((await newPayload(a, p, [], null)).error?.code).toBe(-32602)
    expect((await newPayload(a, p, [], ['0x01'])).error?.code).toBe(-32602)
    expect((await newPayload(a, p, [], ['0x0101', '0x0001'])).error?.code).toBe(-32602)
    expect((await newPayload(a, p, [], ['0x0101', '0x0102'])).error?.code).toBe(-32602)
    expect((await newPayload(a, { ...p, blockHash: '0x12' })).error?.code).toBe(-32602)
  })
  it('answers INVALID with no latest valid hash for a wrong block hash or blob hashes', async () => {
    const env = await build(a, (await head(a)).hash, nextTime())
    const p = env.executionPayload
    const wrongHash = await newPayload(b, { ...p, blockHash: `0x${'ab'.repeat(32)}` })
    expect(wrongHash.result).toMatchObject({ status: 'INVALID', latestValidHash: null })
    const wrongBlobs = await newPayload(b, p, [`0x01${'00'.repeat(31)}`])
    expect(wrongBlobs.result).toMatchObject({ status: 'INVALID', latestValidHash: null })
  })
  it('answers SYNCING for an unknown parent', async () => {
    const env = await build(a, (await head(a)).hash, nextTime())
    const first = env.executionPayload
    await newPayload(a, first)
    const child = await build(a, first.blockHash, nextTime())
    // b never saw `first`.
    expect((await newPayload(b, child.executionPayload)).result).toMatchObject({ status: 'SYNCING', latestValidHash: null })
  })
  it('answers INVALID with the parent as latest valid hash when execution fails, and remembers it', async () => {
    const parent = (await head(b)).hash
    const env = await build(a, parent, nextTime())
    // A state root that execution cannot reproduce; the block hash is recomputed by the builder of the test.
    const bad = await rehash(a, { ...env.executionPayload, stateRoot: `0x${'77'.repeat(32)}` })
    const first = await newPayload(b, bad)
    expect(first.result).toMatchObject({ status: 'INVALID', latestValidHash: parent })
    expect(first.result?.validationError).toMatch(/stateRoot/)
    expect((await newPayload(b, bad)).result).toMatchObject({ status: 'INVALID', latestValidHash: parent })
    expect((await fcu(b, bad.blockHash)).result?.payloadStatus.status).toBe('INVALID')
  })
})

/** The payload with its block hash recomputed (testing_buildBlockV1 cannot make invalid blocks; we re-hash). */
async function rehash(n: TestNode, p: Payload): Promise<Payload> {
  const { payloadToBlock } = await import('./worker/payloadBlock.js')
  const spec = n.spec
  try {
    await payloadToBlock(spec, { version: 4, payload: p as never, versionedHashes: [], parentBeaconBlockRoot: ZERO32, executionRequests: [] })
    return p
  } catch (e) {
    const m = /received: (0x[0-9a-f]{64})/.exec((e as Error).message)
    if (m === null) throw e
    return { ...p, blockHash: m[1]! }
  }
}

describe('engine_forkchoiceUpdatedV3 and engine_getPayload errors', () => {
  it('answers SYNCING for an unknown head', async () => {
    expect((await fcu(a, `0x${'99'.repeat(32)}`)).result?.payloadStatus.status).toBe('SYNCING')
  })
  it('answers -38002 when safe or finalized is not an ancestor of the head', async () => {
    const h = (await head(a)).hash
    expect((await fcu(a, h, `0x${'99'.repeat(32)}`)).error?.code).toBe(-38002)
    expect((await fcu(a, h, ZERO32, `0x${'99'.repeat(32)}`)).error?.code).toBe(-38002)
  })
  it('answers -38003 for attributes whose timestamp is not after the head', async () => {
    const h = await head(a)
    const r = await a.engine('engine_forkchoiceUpdatedV3', [
      { headBlockHash: h.hash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
      payloadAttributes(BigInt(h.timestamp)),
    ])
    expect(r.error?.code).toBe(-38003)
  })
  it('answers -38001 for an unknown payload id and -38005 for the wrong version', async () => {
    expect((await a.engine('engine_getPayloadV4', ['0x0000000000000001'])).error?.code).toBe(-38001)
    const parent = await head(a)
    const attrs = payloadAttributes(nextTime())
    const fc = await a.engine<{ payloadId: string }>('engine_forkchoiceUpdatedV3', [
      { headBlockHash: parent.hash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
      attrs,
    ])
    // The dev chain is in Osaka: its payloads are fetched with V5, not V4 or V1.
    expect((await a.engine('engine_getPayloadV4', [fc.result!.payloadId])).error?.code).toBe(-38005)
    expect((await a.engine('engine_getPayloadV1', [fc.result!.payloadId])).error?.code).toBe(-38005)
    const v5 = await a.engine<Envelope | null>('engine_getPayloadV5', [fc.result!.payloadId])
    expect(v5.error).toBeUndefined()
    expect(v5.result).not.toBeNull()
    expect(v5.result).toMatchObject({
      executionPayload: { parentHash: parent.hash, blockNumber: `0x${(BigInt(parent.number) + 1n).toString(16)}`, timestamp: attrs.timestamp },
      blobsBundle: { commitments: [], proofs: [], blobs: [] },
      executionRequests: [],
    })
  })
  it('answers -38005 to newPayloadV4 for a payload before Prague', async () => {
    const g = devGenesis()
    g.config.pragueTime = 4_000_000_000
    g.config.osakaTime = 4_000_000_000
    const pre = await startTestNode({ genesis: g })
    try {
      const h = (await head(pre)).hash
      const fc = await pre.engine<{ payloadId: string }>('engine_forkchoiceUpdatedV3', [
        { headBlockHash: h, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
        payloadAttributes(nextTime()),
      ])
      expect((await pre.engine('engine_getPayloadV5', [fc.result!.payloadId])).error?.code).toBe(-38005)
      const p = {
        parentHash: h,
        feeRecipient: `0x${'00'.repeat(20)}`,
        stateRoot: ZERO32,
        receiptsRoot: ZERO32,
        logsBloom: `0x${'00'.repeat(256)}`,
        prevRandao: ZERO32,
        blockNumber: '0x1',
        gasLimit: '0x1c9c380',
        gasUsed: '0x0',
        timestamp: `0x${nextTime().toString(16)}`,
        extraData: '0x',
        baseFeePerGas: '0x7',
        blockHash: ZERO32,
        transactions: [],
        withdrawals: [],
        blobGasUsed: '0x0',
        excessBlobGas: '0x0',
      }
      expect((await newPayload(pre, p as never)).error?.code).toBe(-38005)
    } finally {
      await pre.close()
    }
  })
})
