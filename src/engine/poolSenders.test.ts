import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'

// A payload whose transactions the node already pooled: their senders' keys come from the pool, by hash, into the
// slots the engine worker reads (senderRecovery.ts). A key put at the wrong index would make the wrong account the
// sender, and the block INVALID.

let builder: TestNode
let follower: TestNode
beforeAll(async () => {
  ;[builder, follower] = await Promise.all([startTestNode({ apis: ['eth', 'testing'] }), startTestNode()])
})
afterAll(async () => {
  await Promise.all([builder.close(), follower.close()])
})

describe('newPayload of transactions the pool holds', () => {
  it('executes with the senders the pool recovered at admission', async () => {
    const raws = [3, 1, 4, 0, 2].map((from) => signedTransfer(follower.spec, from, 0, { value: BigInt(from + 1) }))
    // Pooled on the follower, in another order than the block's, one left out.
    for (const raw of [raws[2]!, raws[0]!, raws[4]!, raws[3]!]) expect((await follower.http('eth_sendRawTransaction', [raw])).error).toBeUndefined()
    const genesis = (await builder.http<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).result!
    const built = await builder.http<{ executionPayload: { blockHash: string } }>('testing_buildBlockV1', [
      genesis.hash,
      payloadAttributes(0x1000),
      raws,
      null,
    ])
    const status = await follower.engine<{ status: string }>('engine_newPayloadV4', [built.result!.executionPayload, [], ZERO32, []])
    expect(status.result?.status).toBe('VALID')
    const block = built.result!.executionPayload.blockHash
    const froms: string[] = []
    for (let i = 0; i < raws.length; i++) {
      const tx = await follower.http<{ from: string }>('eth_getTransactionByBlockHashAndIndex', [block, `0x${i.toString(16)}`])
      froms.push(tx.result!.from)
    }
    expect(froms).toEqual([3, 1, 4, 0, 2].map((i) => devAccounts()[i]!.address.toLowerCase()))
  })
})
