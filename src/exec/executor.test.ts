import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'
import { hexToBytes } from '../util/hex.js'

let builder: TestNode
let follower: TestNode
beforeAll(async () => {
  ;[builder, follower] = await Promise.all([startTestNode({ apis: ['eth', 'testing'] }), startTestNode()])
})
afterAll(async () => {
  await Promise.all([builder.close(), follower.close()])
})

describe('an internal failure during execution is not an invalid block', () => {
  it('answers -32603 and remembers nothing when the parent state is unreadable, then VALID once it is back', async () => {
    const genesis = (await builder.http<{ hash: string; stateRoot: string }>('eth_getBlockByNumber', ['0x0', false])).result!
    const built = await builder.http<{ executionPayload: { blockHash: string } }>('testing_buildBlockV1', [
      genesis.hash,
      payloadAttributes(0x1000),
      [signedTransfer(builder.spec, 0, 0)],
      null,
    ])
    const payload = built.result!.executionPayload
    // The follower loses the root node of its genesis state (as a damaged or pruned store would).
    const trie = follower.node.store.db('trie')
    const root = hexToBytes(genesis.stateRoot)
    const node = trie.getBinary(root)!.slice()
    trie.removeSync(root)
    const failed = await follower.engine('engine_newPayloadV4', [payload, [], ZERO32, []])
    expect(failed.error?.code).toBe(-32603)
    expect(follower.node.context.store.getInvalid(hexToBytes(payload.blockHash))).toBeUndefined()
    trie.putSync(root, node)
    const retried = await follower.engine<{ status: string }>('engine_newPayloadV4', [payload, [], ZERO32, []])
    expect(retried.result?.status).toBe('VALID')
  })
})
