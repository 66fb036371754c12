import { devBlobTx } from '../testing/blobTx.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { type TestNode, ZERO32, errorCode as code, startTestNode } from '../testing/testNode.js'
import { bytesToHex } from '../util/hex.js'

// Every Engine API version on one chain that passes through every fork: Paris until 1000, Shanghai from 1000,
// Cancun from 2000, Prague from 3000, Osaka from 4000 (timestamps). Each version's fork checks and member checks.

const SHANGHAI = 1000
const CANCUN = 2000
const PRAGUE = 3000
const OSAKA = 4000

let n: TestNode
beforeAll(async () => {
  const genesis = devGenesis()
  Object.assign(genesis.config, { shanghaiTime: SHANGHAI, cancunTime: CANCUN, pragueTime: PRAGUE, osakaTime: OSAKA })
  n = await startTestNode({ genesis })
})
afterAll(async () => {
  await n.close()
})

type Obj = Record<string, unknown>
const hex = (v: number) => `0x${v.toString(16)}`
const fee = `0x${'00'.repeat(20)}`

async function head(): Promise<{ hash: string; timestamp: string }> {
  return (await n.engine<{ hash: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false])).result!
}

function attrs(timestamp: number, withdrawals: boolean, root: boolean): Obj {
  return {
    timestamp: hex(timestamp),
    prevRandao: ZERO32,
    suggestedFeeRecipient: fee,
    ...(withdrawals ? { withdrawals: [{ index: '0x0', validatorIndex: '0x1', address: `0x${'42'.repeat(20)}`, amount: '0x10' }] } : {}),
    ...(root ? { parentBeaconBlockRoot: ZERO32 } : {}),
  }
}

async function fcu(version: number, headHash: string, a: Obj | null) {
  return n.engine<{ payloadStatus: { status: string }; payloadId: string | null }>(`engine_forkchoiceUpdatedV${version}`, [
    { headBlockHash: headHash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
    a,
  ])
}

/** Builds a block at `timestamp` with fcu V`fcuVersion`, fetches it with getPayload V`getVersion`, imports it with newPayload V`newVersion`. */
async function step(timestamp: number, fcuVersion: number, getVersion: number, build: Obj): Promise<{ payload: Obj; env: Obj; id: string }> {
  const h = await head()
  const started = await fcu(fcuVersion, h.hash, build)
  expect(started.error, `fcuV${fcuVersion} at ${timestamp}`).toBeUndefined()
  const id = started.result!.payloadId!
  const got = await n.engine<Obj>(`engine_getPayloadV${getVersion}`, [id])
  expect(got.error, `getPayloadV${getVersion} at ${timestamp}`).toBeUndefined()
  const env = got.result!
  const payload = (getVersion === 1 ? env : env.executionPayload) as Obj
  expect(BigInt(payload.timestamp as string)).toBe(BigInt(timestamp))
  return { payload, env, id }
}

async function importAndSetHead(version: number, payload: Obj, extra: unknown[], fcuVersion: number): Promise<void> {
  const st = await n.engine<{ status: string; validationError: string | null }>(`engine_newPayloadV${version}`, [payload, ...extra])
  expect(st.result, `newPayloadV${version}`).toMatchObject({ status: 'VALID' })
  expect((await fcu(fcuVersion, payload.blockHash as string, null)).result?.payloadStatus.status).toBe('VALID')
}

describe('Engine API versions through Paris, Shanghai, Cancun, Prague and Osaka', () => {
  it('lists exactly the engine methods it serves, engine_exchangeCapabilities itself not among them (common.md)', async () => {
    const caps = (await n.engine<string[]>('engine_exchangeCapabilities', [[]])).result!
    expect(caps.sort()).toEqual(
      [
        ...[1, 2, 3, 4].map((v) => `engine_newPayloadV${v}`),
        ...[1, 2, 3].map((v) => `engine_forkchoiceUpdatedV${v}`),
        ...[1, 2, 3, 4, 5].map((v) => `engine_getPayloadV${v}`),
        'engine_getBlobsV1',
        'engine_getBlobsV2',
        'engine_getPayloadBodiesByHashV1',
        'engine_getPayloadBodiesByRangeV1',
        'engine_getClientVersionV1',
      ].sort(),
    )
  })

  it('Paris: V1 methods; withdrawals, blob fields and later versions refused', async () => {
    const h = await head()
    expect(code(await fcu(1, h.hash, attrs(100, true, false)))).toBe(-32602)
    expect(code(await fcu(1, h.hash, attrs(SHANGHAI, false, false)))).toBe(-38005)
    expect(code(await fcu(2, h.hash, attrs(100, true, false)))).toBe(-38003)
    expect(code(await fcu(3, h.hash, attrs(100, true, true)))).toBe(-38005)
    const { payload, id } = await step(100, 1, 1, attrs(100, false, false))
    expect(payload).not.toHaveProperty('withdrawals')
    expect(payload).not.toHaveProperty('blobGasUsed')
    expect(code(await n.engine('engine_getPayloadV3', [id]))).toBe(-38005)
    const v2 = (await n.engine<Obj>('engine_getPayloadV2', [id])).result!
    expect(v2.executionPayload).toEqual(payload)
    expect(v2).toHaveProperty('blockValue')
    expect(code(await n.engine('engine_newPayloadV1', [{ ...payload, withdrawals: [] }]))).toBe(-32602)
    expect(code(await n.engine('engine_newPayloadV2', [{ ...payload, blobGasUsed: '0x0', excessBlobGas: '0x0' }]))).toBe(-32602)
    expect(code(await n.engine('engine_newPayloadV3', [payload, [], ZERO32]))).toBe(-32602)
    const wrongHash = await n.engine<{ status: string }>('engine_newPayloadV1', [{ ...payload, blockHash: `0x${'ab'.repeat(32)}` }])
    expect(wrongHash.result?.status).toBe('INVALID_BLOCK_HASH')
    const wrongHashV2 = await n.engine<{ status: string }>('engine_newPayloadV2', [{ ...payload, blockHash: `0x${'ab'.repeat(32)}` }])
    expect(wrongHashV2.result?.status).toBe('INVALID')
    await importAndSetHead(1, payload, [], 1)
    // V2 takes a V1 payload before Shanghai.
    const next = await step(200, 2, 2, attrs(200, false, false))
    await importAndSetHead(2, next.payload, [], 2)
  })

  it('Shanghai: V2 with withdrawals; V1 and V3 refused', async () => {
    const h = await head()
    expect(code(await fcu(2, h.hash, attrs(SHANGHAI, false, false)))).toBe(-38003)
    expect(code(await fcu(2, h.hash, attrs(SHANGHAI, true, true)))).toBe(-38003)
    const { payload, id } = await step(SHANGHAI, 2, 2, attrs(SHANGHAI, true, false))
    expect(payload.withdrawals).toHaveLength(1)
    expect(payload).not.toHaveProperty('blobGasUsed')
    expect(code(await n.engine('engine_getPayloadV1', [id]))).toBe(-38005)
    const { withdrawals: _w, ...noWithdrawals } = payload
    expect(code(await n.engine('engine_newPayloadV2', [noWithdrawals]))).toBe(-32602)
    expect(code(await n.engine('engine_newPayloadV1', [noWithdrawals]))).toBe(-38005)
    await importAndSetHead(2, payload, [], 2)
  })

  it('Cancun: V3 with blob fields and beacon root; V2 and V4 refused', async () => {
    const h = await head()
    expect(code(await fcu(2, h.hash, attrs(CANCUN, true, false)))).toBe(-38005)
    expect(code(await fcu(3, h.hash, attrs(CANCUN, true, false)))).toBe(-38003)
    const { payload, env, id } = await step(CANCUN, 3, 3, attrs(CANCUN, true, true))
    expect(env).toMatchObject({ blobsBundle: { commitments: [], proofs: [], blobs: [] }, shouldOverrideBuilder: false })
    expect(env).not.toHaveProperty('executionRequests')
    expect(payload).toHaveProperty('blobGasUsed')
    expect(code(await n.engine('engine_getPayloadV4', [id]))).toBe(-38005)
    expect(code(await n.engine('engine_getPayloadV2', [id]))).toBe(-38005)
    const { blobGasUsed: _b, ...noBlobGas } = payload
    expect(code(await n.engine('engine_newPayloadV3', [noBlobGas, [], ZERO32]))).toBe(-32602)
    expect(code(await n.engine('engine_newPayloadV2', [payload]))).toBe(-32602)
    expect(code(await n.engine('engine_newPayloadV4', [payload, [], ZERO32, []]))).toBe(-38005)
    expect(code(await n.engine('engine_newPayloadV3', [payload, []]))).toBe(-32602)
    const { blobGasUsed: _u, excessBlobGas: _x, ...asV2 } = payload
    expect(code(await n.engine('engine_newPayloadV2', [asV2]))).toBe(-38005)
    await importAndSetHead(3, payload, [[], ZERO32], 3)
  })

  it('Prague: V4 with execution requests; V3 refused', async () => {
    const { payload, env, id } = await step(PRAGUE, 3, 4, attrs(PRAGUE, true, true))
    expect(env).toHaveProperty('executionRequests')
    expect(code(await n.engine('engine_getPayloadV3', [id]))).toBe(-38005)
    expect(code(await n.engine('engine_getPayloadV5', [id]))).toBe(-38005)
    expect(code(await n.engine('engine_newPayloadV3', [payload, [], ZERO32]))).toBe(-38005)
    expect((await n.engine<string[]>('engine_getBlobsV1', [[ZERO32]])).result).toEqual([null])
    await importAndSetHead(4, payload, [[], ZERO32, []], 3)
  })

  it('Osaka: getPayloadV5, getBlobsV2 from the pool with cell proofs, getBlobsV1 refused', async () => {
    const { payload, id } = await step(OSAKA, 3, 5, attrs(OSAKA, true, true))
    expect(code(await n.engine('engine_getPayloadV4', [id]))).toBe(-38005)
    await importAndSetHead(4, payload, [[], ZERO32, []], 3)
    expect(code(await n.engine('engine_getBlobsV1', [[ZERO32]]))).toBe(-38005)
    expect((await n.engine('engine_getBlobsV2', [[ZERO32]])).result).toBeNull()
    expect(code(await n.engine('engine_getBlobsV2', [Array.from({ length: 129 }, () => ZERO32)]))).toBe(-38004)
    // A blob transaction in the pool: its blob and 128 cell proofs are served by versioned hash.
    const common = n.spec.commonAt(10n, BigInt(OSAKA + 100))
    const tx = devBlobTx(common, 6, 'hello blobs')
    const sent = await n.http<string>('eth_sendRawTransaction', [bytesToHex(tx.serializeNetworkWrapper())])
    expect(sent.error).toBeUndefined()
    const versioned = tx.blobVersionedHashes[0]!.toLowerCase()
    const blobs = (await n.engine<{ blob: string; proofs: string[] }[] | null>('engine_getBlobsV2', [[versioned]])).result
    expect(blobs).toHaveLength(1)
    expect(blobs![0]!.blob).toBe(tx.blobs![0]!.toLowerCase())
    expect(blobs![0]!.proofs).toHaveLength(128)
    expect((await n.engine('engine_getBlobsV2', [[versioned, ZERO32]])).result).toBeNull()

    // Included, it leaves the pool; a reorg that undoes its block brings it back with its sidecar.
    const parent = (await head()).hash
    const { payload: withBlob, env } = await step(OSAKA + 12, 3, 5, attrs(OSAKA + 12, true, true))
    expect(withBlob.transactions).toHaveLength(1)
    expect((env.blobsBundle as { proofs: string[] }).proofs).toHaveLength(128)
    await importAndSetHead(4, withBlob, [[versioned], ZERO32, []], 3)
    expect((await n.engine('engine_getBlobsV2', [[versioned]])).result).toBeNull()
    expect((await fcu(3, parent, null)).result?.payloadStatus.status).toBe('VALID')
    // The forkchoice answers before the undone blocks' transactions are pooled again; the engine service says when
    // they are (the event evm_revert waits on too), and then the sidecar is served at once.
    await n.node.engine.repooled()
    expect((await n.engine('engine_getBlobsV2', [[versioned]])).result).toEqual(blobs)
  })

  it('serves payload bodies by hash and by range, with their limits', async () => {
    const one = (await n.engine<{ hash: string }>('eth_getBlockByNumber', ['0x1', false])).result!.hash
    const three = (await n.engine<{ hash: string }>('eth_getBlockByNumber', ['0x3', false])).result!.hash
    const byHash = (
      await n.engine<({ transactions: string[]; withdrawals: unknown[] | null } | null)[]>('engine_getPayloadBodiesByHashV1', [[one, ZERO32, three]])
    ).result!
    expect(byHash[0]).toEqual({ transactions: [], withdrawals: null })
    expect(byHash[1]).toBeNull()
    expect(byHash[2]!.withdrawals).toEqual([{ index: '0x0', validatorIndex: '0x1', address: `0x${'42'.repeat(20)}`, amount: '0x10' }])
    expect(code(await n.engine('engine_getPayloadBodiesByHashV1', [Array.from({ length: 1025 }, () => ZERO32)]))).toBe(-38004)
    const range = (await n.engine<unknown[]>('engine_getPayloadBodiesByRangeV1', ['0x1', '0x40'])).result!
    const headNumber = Number(BigInt((await n.engine<{ number: string }>('eth_getBlockByNumber', ['latest', false])).result!.number))
    expect(range).toHaveLength(headNumber)
    expect(range[2]).toEqual(byHash[2])
    expect((await n.engine<unknown[]>('engine_getPayloadBodiesByRangeV1', ['0x100', '0x2'])).result).toEqual([])
    expect(code(await n.engine('engine_getPayloadBodiesByRangeV1', ['0x0', '0x1']))).toBe(-32602)
    expect(code(await n.engine('engine_getPayloadBodiesByRangeV1', ['0x1', '0x0']))).toBe(-32602)
    expect(code(await n.engine('engine_getPayloadBodiesByRangeV1', ['0x1', '0x401']))).toBe(-38004)
  })
})
