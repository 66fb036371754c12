import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatGoDuration } from '../util/goDuration.js'
import { devAccounts } from '../chain/dev.js'
import { LOOP_FOREVER } from '../testing/asm.js'
import { laneTakes, movableClock } from '../testing/lane.js'
import { engineBlock, payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, devGenesisWith, startTestNode } from '../testing/testNode.js'

// The engine has its own lane: a flood of public state reads on the HTTP port costs it nothing, and the public lane
// admits what fits of each batch and refuses the rest, at once. (State at the head is read on the serving thread from
// the flat table; eth_getProof still walks the tries in the lane, so it is the state read that floods it here.)

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ maxQueue: 64 })
})
afterAll(async () => {
  await n.close()
})

async function publicBatch(size: number): Promise<{ status: number; items: { result?: unknown; error?: { code: number } }[] }> {
  const address = devAccounts()[0]!.address
  const body = JSON.stringify(
    Array.from({ length: size }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getProof', params: [address, [], 'latest'] })),
  )
  const res = await fetch(`http://127.0.0.1:${n.node.httpPort}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const text = await res.text()
  return { status: res.status, items: res.status === 200 ? (JSON.parse(text) as never) : [] }
}

describe('engine and public lanes', () => {
  it('makes blocks through the engine while public batches flood the pool; every public call is served or refused at once', async () => {
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
    // Through the engine port (its own lane): each step must answer VALID, or engineBlock throws.
    let head = (await n.engine<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash
    for (let i = 0; i < 10; i++) head = (await engineBlock(n, head, payloadAttributes(5000 + i))).blockHash
    flooding = false
    await Promise.all(flooders)
    expect(outcomes.length).toBeGreaterThan(0)
    for (const o of outcomes) {
      expect(o.status).toBe(200)
      // Every call answered: served while the lane had room, refused past it.
      expect(o.served + o.refused).toBe(20)
    }
    expect(outcomes.some((o) => o.served === 20)).toBe(true)
    expect((await n.http<string>('eth_blockNumber')).result).toBe('0xa')
  })
})

describe('admission to the public lane', () => {
  // Eight calls in flight at most, two workers. A runaway eth_call (2^62 gas: years of work) holds one worker and
  // one place until the test lets its time run out, so what the lane holds when each batch arrives is known.
  const LOOP = '0x00000000000000000000000000000000000c0006'
  const LIMIT_MS = 600_000
  let m: TestNode
  let clock: ReturnType<typeof movableClock>
  beforeAll(async () => {
    m = await startTestNode({
      genesis: devGenesisWith({ [LOOP]: LOOP_FOREVER }, { beforeOsaka: true }),
      maxQueue: 8,
      workers: 2,
      evmTimeoutMs: LIMIT_MS,
      httpThreads: 1, // the lane watched and the clock moved are this thread's
      gasCap: 2n ** 62n,
    })
    clock = movableClock()
  })
  afterAll(async () => {
    clock.restore()
    await m.close()
  })

  it('admits the pool calls of a batch that fit and refuses the rest (-32005 each)', async () => {
    const address = devAccounts()[0]!.address
    // Pool methods of several kinds (a proof, a call, an estimate, an access list) with what each answers, and
    // methods answered on the serving thread around them (a state read at the head among them).
    const proof = async (a: string) => (await m.http('eth_getProof', [a, [], 'latest'])).result
    const kinds: [method: string, params: unknown[], answer: unknown][] = [
      ['eth_getProof', [address, [], 'latest'], await proof(address)],
      ['eth_call', [{ to: address }, 'latest'], '0x'],
      ['eth_getProof', [LOOP, [], 'latest'], await proof(LOOP)],
      ['eth_estimateGas', [{ from: address, to: address }], '0x5208'],
      ['eth_createAccessList', [{ from: address, to: address }], (await m.http('eth_createAccessList', [{ from: address, to: address }])).result],
    ]
    const balance = (await m.http('eth_getBalance', [address, 'latest'])).result
    const poolCalls = Array.from({ length: 8 }, (_, i) => kinds[i % kinds.length]!)
    const batch = (count: number): [string, unknown[]][] => [
      ['eth_chainId', []],
      ['eth_getBalance', [address, 'latest']],
      ...poolCalls.slice(0, count).map(([method, params]): [string, unknown[]] => [method, params]),
      ['eth_blockNumber', []],
    ]
    const chainId = `0x${m.spec.chainId.toString(16)}`

    const lane = m.node.lanes.public
    const taken = laneTakes(lane, 'call')
    const runaway = m.http('eth_call', [{ to: LOOP, gas: '0x4000000000000000' }])
    await taken
    expect(lane.stats.inFlight).toBe(1)

    // The client holds 1 of the 8 places and may hold half (the rest kept for a client arriving): the first three
    // lane calls (the proofs) admitted and answered by the other worker while the runaway still holds its place, the
    // fourth refused at once; the cheap calls, estimate and access list answered on the serving thread
    // (calls/threadCalls.ts) without a place; the serving thread's reads answered.
    const partly = await m.batch(batch(8))
    expect(partly.status).toBe(200)
    expect(partly.replies.map((r) => r.result ?? r.error?.code)).toEqual([
      chainId,
      balance,
      ...poolCalls.slice(0, 7).map(([, , answer]) => answer),
      -32005,
      '0x0',
    ])
    expect(lane.stats.inFlight).toBe(1)

    clock.pass(LIMIT_MS)
    expect((await runaway).error).toEqual({ code: -32000, message: `execution aborted (timeout = ${formatGoDuration(LIMIT_MS)})` })
    expect(lane.stats.inFlight).toBe(0)
  })
})
