import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { formatGoDuration } from '../util/goDuration.js'
import { devAccounts } from '../chain/dev.js'
import { LOOP_FOREVER } from '../testing/asm.js'
import { laneTakes, movableClock } from '../testing/lane.js'
import { type TestNode, devGenesisWith, startTestNode } from '../testing/testNode.js'
import { WsClient } from '../testing/wsClient.js'

// Admission by cost (issue 21, item 3): what the serving thread answers from the store is never refused because the
// EVM lane is full, and no client holds more than its share of that lane while another wants it. A client is a
// WebSocket connection, or over HTTP a remote address: the tests' second client connects from 127.0.0.2.

const LOOP = '0x00000000000000000000000000000000000c0006'
const OTHER = '127.0.0.2'
// Years of work: a call holds its place until the test lets its time run out (movableClock).
const RUNAWAY = { to: LOOP, gas: '0x4000000000000000' }
const LIMIT_MS = 600_000
const TIMED_OUT = { code: -32000, message: `execution aborted (timeout = ${formatGoDuration(LIMIT_MS)})` }

const loops = (n: number, call: object = RUNAWAY): [string, unknown[]][] => Array.from({ length: n }, () => ['eth_call', [call, 'latest']])

describe('a full EVM lane', () => {
  let m: TestNode
  let clock: ReturnType<typeof movableClock>
  beforeAll(async () => {
    m = await startTestNode({
      genesis: devGenesisWith({ [LOOP]: LOOP_FOREVER }, { beforeOsaka: true }),
      maxQueue: 8,
      workers: 1,
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

  it('still answers reads the serving thread makes from the store, and refuses only EVM work', async () => {
    const lane = m.node.lanes.public
    const taken = laneTakes(lane, 'call')
    const flood = m.batch(loops(8))
    await taken
    // The batch's calls reach the lane in steps (each first tried on the serving thread within its budget): on a
    // loaded machine the first was taken before the last were made.
    await vi.waitFor(() => expect(lane.stats.inFlight).toBe(8), { timeout: 60_000, interval: 20 })

    // Before: HTTP 503 "overloaded" for every request while three quarters of the lane were held.
    const address = devAccounts()[0]!.address
    expect(await m.http('eth_blockNumber')).toMatchObject({ status: 200, result: '0x0' })
    const balance = await m.http<string>('eth_getBalance', [address, 'latest'])
    expect(balance.status).toBe(200)
    expect(BigInt(balance.result!)).toBeGreaterThan(0n)
    // A cheap call is answered on the serving thread (calls/threadCalls.ts); one that needs the lane is refused.
    const mixed = await m.batch([
      ['eth_chainId', []],
      ['eth_call', [{ to: address }, 'latest']],
      ['eth_call', [RUNAWAY, 'latest']],
      ['eth_getTransactionCount', [address, 'latest']],
    ])
    expect(mixed.status).toBe(200)
    expect(mixed.replies.map((r) => r.result ?? r.error?.code)).toEqual([`0x${m.spec.chainId.toString(16)}`, '0x', -32005, '0x0'])

    clock.pass(LIMIT_MS)
    const done = await flood
    expect(done.replies.map((r) => r.error)).toEqual(Array(8).fill(TIMED_OUT))
  })
})

describe('EVM work shared between clients', () => {
  let m: TestNode
  beforeAll(async () => {
    // A time limit no machine comes near: which call runs first decides the test, never how long they take.
    m = await startTestNode({
      genesis: devGenesisWith({ [LOOP]: LOOP_FOREVER }, { beforeOsaka: true }),
      maxQueue: 64,
      workers: 1,
      evmTimeoutMs: LIMIT_MS,
      httpThreads: 1, // the lane watched and the clock moved are this thread's
    })
  })
  afterAll(async () => {
    await m.close()
  })

  it("runs a second client's call before the first client's queued calls", async () => {
    const lane = m.node.lanes.public
    // Each call spins until its 500,000 gas run out: milliseconds of work, 32 of them queued on one worker.
    const taken = laneTakes(lane, 'call')
    let firstDone = false
    const first = m.batch(loops(32, { to: LOOP, gas: '0x7a120' })).then((r) => {
      firstDone = true
      return r
    })
    await taken
    const address = devAccounts()[0]!.address
    // Before: the worker took all 32 in one task, and the other client's call waited behind every one of them.
    const other = await m.batchFrom(OTHER, [['eth_call', [{ to: address }, 'latest']]])
    expect(other.replies[0]).toMatchObject({ result: '0x' })
    expect(firstDone).toBe(false)
    const all = await first
    expect(all.replies).toHaveLength(32)
    for (const r of all.replies) expect(r.error?.message).toMatch(/out of gas/)
  })
})

describe('a client past its share of the EVM lane', () => {
  let m: TestNode
  let clock: ReturnType<typeof movableClock>
  beforeAll(async () => {
    m = await startTestNode({
      genesis: devGenesisWith({ [LOOP]: LOOP_FOREVER }, { beforeOsaka: true }),
      maxQueue: 16,
      workers: 1,
      evmTimeoutMs: LIMIT_MS,
      httpThreads: 1, // the lane watched and the clock moved are this thread's
      gasCap: 2n ** 62n,
    })
    clock = movableClock()
  })
  afterAll(async () => {
    // A test that failed before its calls' time ran out leaves them looping: the close would wait for them.
    clock.pass(LIMIT_MS)
    clock.restore()
    await m.close()
  })

  it('is refused what passes its share while another client holds calls, and admitted up to it', async () => {
    const lane = m.node.lanes.public
    type Reply = ReturnType<TestNode['batch']>
    // Sends a batch and resolves once the lane has taken its calls (an object: a promise returned would be awaited).
    const admitted = async (send: () => Reply): Promise<{ reply: Reply }> => {
      const taken = laneTakes(lane, 'call')
      const reply = send()
      await taken
      return { reply }
    }
    const first = await admitted(() => m.batch(loops(3)))
    const other = await admitted(() => m.batchFrom(OTHER, loops(1)))
    // A batch's calls reach the lane in steps on a loaded machine; none ends before the clock moves.
    await vi.waitFor(() => expect(lane.stats.inFlight).toBe(4), { timeout: 10_000, interval: 10 })
    // Two clients hold calls: each may hold a third of the 16 places (the third kept for a client arriving). The
    // first holds 3: two more of four fit.
    const more = await admitted(() => m.batch(loops(4)))
    await vi.waitFor(() => expect(lane.stats.inFlight).toBe(6), { timeout: 10_000, interval: 10 })

    clock.pass(LIMIT_MS)
    const [a, b, c] = await Promise.all([first.reply, other.reply, more.reply])
    expect(a!.replies.map((r) => r.error)).toEqual(Array(3).fill(TIMED_OUT))
    expect(b!.replies.map((r) => r.error)).toEqual([TIMED_OUT])
    expect(c!.replies.map((r) => r.error?.code)).toEqual([-32000, -32000, -32005, -32005])
  })
})

describe('a flood of looping calls over many connections', () => {
  // Issue 29: while one client flooded looping eth_calls over 50 WebSocket connections (50 clients to the lane), another
  // client's single eth_call waited behind all of them (3.9–5.0 s, or timed out). A cheap call now runs on the serving
  // thread (calls/threadCalls.ts): it is answered while every flooding call still holds its place in the lane.
  let m: TestNode
  let clock: ReturnType<typeof movableClock>
  beforeAll(async () => {
    m = await startTestNode({
      genesis: devGenesisWith({ [LOOP]: LOOP_FOREVER }, { beforeOsaka: true }),
      workers: 1,
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

  it("answers another client's call at once, whatever the flood holds", async () => {
    const url = `ws://127.0.0.1:${m.node.httpPort}`
    const sockets = await Promise.all(Array.from({ length: 50 }, () => WsClient.open(url)))
    const lane = m.node.lanes.public
    const taken = laneTakes(lane, 'call')
    const flood = sockets.map((s) => s.call('eth_call', [RUNAWAY, 'latest']))
    await taken
    const held = lane.stats.inFlight
    expect(held).toBeGreaterThan(0)
    const address = devAccounts()[0]!.address
    for (let i = 0; i < 5; i++)
      expect((await m.batchFrom(OTHER, [['eth_call', [{ to: address }, 'latest']]])).replies[0]).toMatchObject({ result: '0x' })
    // Nothing of the flood was answered meanwhile: its calls are still held (their time has not run out).
    expect(lane.stats.inFlight).toBeGreaterThanOrEqual(held)
    clock.pass(LIMIT_MS)
    for (const r of await Promise.all(flood)) expect(r.error?.code).toBe(-32000)
    for (const s of sockets) s.ws.close()
  })
})
