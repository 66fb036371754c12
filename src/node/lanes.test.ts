import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { type TestNode, ZERO32, startTestNode } from '../testing/testNode.js'

// The engine has its own lane: a flood of public state reads on the HTTP port costs it nothing, and the public lane
// admits whole batches or refuses them whole, at once.

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ maxQueue: 64 })
})
afterAll(async () => {
  await n.close()
})

async function publicBatch(size: number): Promise<{ status: number; items: { result?: string; error?: { code: number } }[] }> {
  const address = devAccounts()[0]!.address
  const body = JSON.stringify(Array.from({ length: size }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getBalance', params: [address, 'latest'] })))
  const res = await fetch(`http://127.0.0.1:${n.node.httpPort}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const text = await res.text()
  return { status: res.status, items: res.status === 200 ? (JSON.parse(text) as never) : [] }
}

describe('engine and public lanes', () => {
  it('makes blocks through the engine while public batches flood the pool; public batches are admitted or refused whole', async () => {
    let flooding = true
    const outcomes: { status: number; served: number; refused: number }[] = []
    const flooders = Array.from({ length: 16 }, async () => {
      while (flooding) {
        const r = await publicBatch(20)
        const served = r.items.filter((i) => i.result !== undefined).length
        const refused = r.items.filter((i) => i.error?.code === -32005).length
        outcomes.push({ status: r.status, served, refused })
      }
    })
    let head = (await n.engine<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash
    for (let i = 0; i < 10; i++) {
      const fc = await n.engine<{ payloadId: string }>('engine_forkchoiceUpdatedV3', [
        { headBlockHash: head, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
        { timestamp: `0x${(5000 + i).toString(16)}`, prevRandao: ZERO32, suggestedFeeRecipient: `0x${'00'.repeat(20)}`, withdrawals: [], parentBeaconBlockRoot: ZERO32 },
      ])
      expect(fc.error).toBeUndefined()
      const env = await n.engine<{ executionPayload: { blockHash: string } }>('engine_getPayloadV5', [fc.result!.payloadId])
      expect(env.error).toBeUndefined()
      const p = env.result!.executionPayload
      expect((await n.engine<{ status: string }>('engine_newPayloadV4', [p, [], ZERO32, []])).result?.status).toBe('VALID')
      const moved = await n.engine<{ payloadStatus: { status: string } }>('engine_forkchoiceUpdatedV3', [
        { headBlockHash: p.blockHash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
        null,
      ])
      expect(moved.result?.payloadStatus.status).toBe('VALID')
      head = p.blockHash
    }
    flooding = false
    await Promise.all(flooders)
    expect(outcomes.length).toBeGreaterThan(0)
    for (const o of outcomes) {
      if (o.status === 503) continue
      expect(o.status).toBe(200)
      // Whole batches: all 20 served or all 20 refused.
      expect([o.served, o.refused].sort()).toEqual([0, 20])
    }
    expect(outcomes.some((o) => o.served === 20)).toBe(true)
    expect((await n.http<string>('eth_blockNumber')).result).toBe('0xa')
  })
})
