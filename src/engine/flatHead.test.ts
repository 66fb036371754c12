import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { engineBlock, latestHash, makeHead, payloadAttributes } from '../testing/engineBlocks.js'
import { laneOps } from '../testing/lane.js'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'
import { bytesToHex } from '../util/hex.js'

// State reads at the head (eth_getBalance & co. at `latest`) are answered on the serving thread from the flat state
// table only while the table holds the canonical head's state; otherwise they go to the public lane, which a flood
// of eth_calls fills (-32005). A chain driven through the Engine API as a consensus client (and bench:load's
// chainGen) drives it must keep the table at the head: after a build that is never imported, a payload on a side
// branch, a reorg to a sibling executed earlier, and a reorg back to an ancestor.
// The replies kept at a head (state/flatStateReader.ts) go with it: each step reads the same accounts again.

const RECEIVER = devAccounts()[9]!.address
const SENDER = devAccounts()[1]!.address

let n: TestNode
beforeAll(async () => {
  // One thread serving the port: the lane and flat state watched are this thread's.
  n = await startTestNode({ apis: ['eth', 'testing'], httpThreads: 1 })
})
afterAll(async () => {
  await n.close()
})

let t = Math.floor(Date.now() / 1000)

/** The flat table's block, as the store holds it now. */
function flatHead(): string | undefined {
  n.node.store.refreshSnapshot()
  const f = n.node.store.flatHead()
  return f === undefined ? undefined : bytesToHex(f.hash)
}

/**
 * eth_getBalance of the receiver and the sender's nonce at `latest`, checked to be answered on this thread from the
 * flat table (no lane task), and the same at the head's hash (which the lane answers by a trie walk whenever the
 * table is elsewhere).
 */
async function headReads(): Promise<{ balance: string; nonce: string }> {
  const head = await latestHash(n)
  expect(flatHead()).toBe(head)
  expect(n.node.context.flatState.headAccount('balance', RECEIVER)).toBeDefined()
  const { ops, stop } = laneOps(n.node.lanes.public)
  try {
    const balance = await n.http<string>('eth_getBalance', [RECEIVER, 'latest'])
    const nonce = await n.http<string>('eth_getTransactionCount', [SENDER, 'latest'])
    expect(ops).toEqual([])
    expect((await n.http<string>('eth_getBalance', [RECEIVER, { blockHash: head }])).result).toBe(balance.result)
    expect((await n.http<string>('eth_getTransactionCount', [SENDER, { blockHash: head }])).result).toBe(nonce.result)
    return { balance: balance.result!, nonce: nonce.result! }
  } finally {
    stop()
  }
}

describe('the flat state table follows the canonical head', () => {
  it('after a build that is never imported (bench:load chainGen.mineAll ends with one)', async () => {
    expect((await n.http('eth_sendRawTransaction', [signedTransfer(n.spec, 1, 0, { to: RECEIVER, value: 7n })])).error).toBeUndefined()
    const b1 = await engineBlock(n, await latestHash(n), payloadAttributes(++t))
    expect(b1.transactions).toHaveLength(1)
    const at1 = await headReads()
    expect(at1.nonce).toBe('0x1')
    // mineAll's last round: forkchoiceUpdated with attributes on the head, getPayload of the (empty) build, no import.
    const started = await n.engine<{ payloadId: string }>('engine_forkchoiceUpdatedV3', [
      { headBlockHash: b1.blockHash, safeBlockHash: b1.blockHash, finalizedBlockHash: b1.blockHash },
      payloadAttributes(++t),
    ])
    const built = await n.engine<{ executionPayload: { blockHash: string; transactions: string[] } }>('engine_getPayloadV5', [
      started.result!.payloadId,
    ])
    expect(built.result!.executionPayload.transactions).toHaveLength(0)
    expect(await latestHash(n)).toBe(b1.blockHash)
    expect(await headReads()).toEqual(at1)
  })

  it('after a payload on a side branch, a reorg to it, and a reorg back', async () => {
    const parent = await latestHash(n)
    // Branch A: an empty a2 (stored, not made head), then a3 with a transfer of 11 wei (its build makes a2 the head).
    const a2 = await engineBlock(n, parent, payloadAttributes(++t), { head: false })
    expect(a2.transactions).toHaveLength(0)
    const before = await headReads()
    expect((await n.http('eth_sendRawTransaction', [signedTransfer(n.spec, 1, 1, { to: RECEIVER, value: 11n })])).error).toBeUndefined()
    const a3 = await engineBlock(n, a2.blockHash, payloadAttributes(++t), { head: false })
    expect(a3.transactions).toHaveLength(1)
    // Stored, not canonical: latest is a2 (empty: the same values as its parent), served from the table.
    expect(await headReads()).toEqual(before)
    await makeHead(n, a3.blockHash)
    const onA = await headReads()
    expect(BigInt(onA.balance) - BigInt(before.balance)).toBe(11n)
    expect(onA.nonce).toBe('0x2')

    // Branch B: b2, a sibling of a2 with another transfer from the same nonce (13 wei); the reorg to it, then back to
    // the fork point, then onto A again.
    const b2Raw = signedTransfer(n.spec, 1, 1, { to: RECEIVER, value: 13n })
    const b2Built = await n.http<{ executionPayload: { blockHash: string; transactions: string[] }; executionRequests: string[] }>(
      'testing_buildBlockV1',
      [parent, payloadAttributes(++t, { feeRecipient: `0x${'bb'.repeat(20)}` }), [b2Raw], null],
    )
    const b2 = b2Built.result?.executionPayload
    expect(b2?.transactions).toHaveLength(1)
    const st = await n.engine<{ status: string }>('engine_newPayloadV4', [b2, [], ZERO32, b2Built.result!.executionRequests])
    expect(st.result?.status).toBe('VALID')
    expect(await headReads()).toEqual(onA)
    await makeHead(n, b2!.blockHash)
    const onB = await headReads()
    expect(BigInt(onB.balance) - BigInt(before.balance)).toBe(13n)
    expect(onB.nonce).toBe('0x2')
    await makeHead(n, parent)
    expect(await headReads()).toEqual(before)
    await makeHead(n, a3.blockHash)
    expect(await headReads()).toEqual(onA)
  })
})
