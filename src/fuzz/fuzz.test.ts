import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, startTestNode } from '../testing/testNode.js'
import { fuzzGenesis } from './chain.js'
import { HEAVY_BOUNDS, HEAVY_QUEUE, runHeavy } from './heavy.js'
import { runFuzz } from './run.js'

// 10,000 generated requests, fixed seed, over both endpoints of one node: every reply well-formed with the right
// code, never -32603, and the node serving at the end. `npm run fuzz -- --runs N --seed S` runs longer.

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ apis: ['eth', 'net', 'web3', 'testing'] })
})
afterAll(async () => {
  await n.close()
})

describe('fuzzing both endpoints', () => {
  it('answers 10,000 malformed and odd requests as a client mistake, and keeps serving', async () => {
    const report = await runFuzz({
      spec: n.spec,
      httpUrl: `http://127.0.0.1:${n.node.httpPort}`,
      authUrl: `http://127.0.0.1:${n.node.authPort}`,
      jwtSecret: (await import('../testing/testNode.js')).TEST_JWT_SECRET,
      maxBatch: 100,
      runs: 10_000,
      seed: 20261123,
    })
    expect(report.failures).toEqual([])
    expect(report.cases).toBe(10_000)
    expect((await n.http<string>('eth_chainId')).result).toBe('0x539')
    // 10,000 round trips: half a minute on a loaded machine, a minute with another test file beside it.
  }, 180_000)
})

// Issue 21's heavy cases, short and seeded: `npm run fuzz -- --only replies,flood --seed S` runs them longer.
describe('heavy requests', () => {
  let h: TestNode
  beforeAll(async () => {
    h = await startTestNode({
      genesis: fuzzGenesis(),
      dev: {},
      maxReplyBytes: HEAVY_BOUNDS.maxReply,
      maxBatchReplyBytes: HEAVY_BOUNDS.maxBatchReply,
      maxQueue: HEAVY_QUEUE,
      workers: 1,
    })
  })
  afterAll(async () => {
    await h.close()
  })
  const url = () => `http://127.0.0.1:${h.node.httpPort}`

  it('huge replies: 60 cases of big answers, each a result or -32003 within the bounds', async () => {
    const run = await runHeavy({ url: url(), spec: h.spec, seed: 20261126, replies: 60, floodOps: 0, floodGas: 0 })
    expect(run.lines.filter((l) => l.startsWith('FAIL'))).toEqual([])
    expect(run.failed).toBe(0)
  })

  it("a flood of heavy calls: other clients' reads all answered, another client's eth_call admitted", async () => {
    const run = await runHeavy({ url: url(), spec: h.spec, seed: 20261127, replies: 0, floodOps: 16, floodGas: 150_000 })
    expect(run.lines.filter((l) => l.startsWith('FAIL'))).toEqual([])
    expect(run.failed).toBe(0)
  })
})
