import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, startTestNode } from '../testing/testNode.js'
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
  })
})
