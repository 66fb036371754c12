import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, devGenesisWith, signedTransfer, startTestNode } from '../testing/testNode.js'

// A contract that stores BLOCKHASH(NUMBER - i) in slot i for i = 1, 2, 3: its state root depends on the ancestors
// the EVM sees.
const RECORDER = '0x00000000000000000000000000000000000b10c5'
const RECORDER_CODE = `0x${[1, 2, 3].map((i) => `600${i}430340600${i}55`).join('')}00`

interface Payload {
  blockHash: string
  blockNumber: string
}

let builder: TestNode
let follower: TestNode
beforeAll(async () => {
  const genesis = devGenesisWith({ [RECORDER]: RECORDER_CODE })
  ;[builder, follower] = await Promise.all([startTestNode({ genesis, apis: ['eth', 'testing'] }), startTestNode({ genesis })])
})
afterAll(async () => {
  await Promise.all([builder.close(), follower.close()])
})

/** A chain of `length` blocks on genesis, each calling the recorder; `salt` makes branches differ. */
async function branch(genesisHash: string, length: number, salt: number): Promise<Payload[]> {
  const out: Payload[] = []
  let parent = genesisHash
  for (let i = 0; i < length; i++) {
    const tx = signedTransfer(builder.spec, 1, i, { to: RECORDER, gas: 200_000n, value: BigInt(salt) })
    const built = await builder.http<{ executionPayload: Payload }>('testing_buildBlockV1', [
      parent,
      payloadAttributes(1000 + i * 12 + salt),
      [tx],
      null,
    ])
    const p = built.result!.executionPayload
    expect((await builder.engine<{ status: string }>('engine_newPayloadV4', [p, [], ZERO32, []])).result?.status).toBe('VALID')
    out.push(p)
    parent = p.blockHash
  }
  return out
}

describe('BLOCKHASH sees the ancestors of the block being executed, on any branch', () => {
  it('executes a block of branch B right after branch A reached the same height', async () => {
    const genesisHash = (await builder.http<{ hash: string }>('eth_getBlockByNumber', ['0x0', false])).result!.hash
    const a = await branch(genesisHash, 3, 1)
    const b = await branch(genesisHash, 4, 2)
    // The follower (one worker) executes B1..B3, then A1..A3 (parent of A3 is at height 2), then B4 (parent at
    // height 3, on the other branch).
    for (const p of [b[0]!, b[1]!, b[2]!, a[0]!, a[1]!, a[2]!, b[3]!]) {
      const st = await follower.engine<{ status: string; validationError: string | null }>('engine_newPayloadV4', [p, [], ZERO32, []])
      expect(st.result, `block ${p.blockNumber} ${p.blockHash}`).toMatchObject({ status: 'VALID' })
    }
  })
})
