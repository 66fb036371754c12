import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExecutionPayload } from '../wire/engineParams.js'
import { payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, startTestNode } from '../testing/testNode.js'
import { bytesToHex } from '../util/hex.js'

let n: TestNode
beforeAll(async () => {
  n = await startTestNode()
})
afterAll(async () => {
  await n.close()
})

describe('the serving thread reads what a worker has just stored', () => {
  it('forkchoiceUpdated right after newPayload finds the block, forty times in a row', async () => {
    const engine = n.node.engine
    let head: string = bytesToHex(n.node.context.chain.head().hash)
    let time = 1_000
    // Reads on every turn of the event loop, as a node under public load makes them.
    let reading = true
    const read = () => {
      n.node.context.chain.head()
      if (reading) setImmediate(read)
    }
    read()
    for (let i = 0; i < 40; i++) {
      const fc = { headBlockHash: head, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 }
      time += 12
      const attrs = payloadAttributes(time)
      const started = await engine.forkchoiceUpdated(fc, attrs, 3)
      const env = (await engine.getPayload(started.payloadId!, 5)) as { executionPayload: ExecutionPayload }
      const p = env.executionPayload
      expect((await engine.newPayloadV4(p, [], ZERO32, [])).status).toBe('VALID')
      const moved = await engine.forkchoiceUpdated({ headBlockHash: p.blockHash, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 }, null, 3)
      expect(moved.payloadStatus.status, `block ${i + 1}`).toBe('VALID')
      head = p.blockHash
    }
    reading = false
  })
})
