import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { engineBlock, payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'

let n: TestNode
beforeAll(async () => {
  n = await startTestNode()
})
afterAll(async () => {
  await n.close()
})

interface Payload {
  blockHash: string
  blockNumber: string
  transactions: string[]
}

let t = Math.floor(Date.now() / 1000)

/** Builds (and stores, VALID) a block on `parent`, not made head; `recipient` makes sibling blocks differ. */
const build = (parent: string, recipient: string): Promise<Payload> =>
  engineBlock(n, parent, payloadAttributes(++t, { feeRecipient: recipient }), { head: false })

const setHead = async (hash: string, safe = ZERO32) => {
  const r = await n.engine<{ payloadStatus: { status: string } }>('engine_forkchoiceUpdatedV3', [
    { headBlockHash: hash, safeBlockHash: safe, finalizedBlockHash: ZERO32 },
    null,
  ])
  expect(r.result?.payloadStatus.status).toBe('VALID')
}

const latest = async () => (await n.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash
const byNumber = async (num: string) => (await n.http<{ hash: string } | null>('eth_getBlockByNumber', [num, false])).result?.hash

describe('reorgs between two competing branches', () => {
  it('moves head back and forth; canonical index, transaction index and latest follow', async () => {
    const genesis = await latest()
    // Branch A: a transfer in block 1, then block 2. Branch B: an empty block 1.
    const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 1, 0)])
    const a1 = await build(genesis, `0x${'aa'.repeat(20)}`)
    expect(a1.transactions).toHaveLength(1)
    const b1 = await build(genesis, `0x${'bb'.repeat(20)}`)
    expect(b1.transactions).toHaveLength(1)
    await setHead(a1.blockHash)
    const a2 = await build(a1.blockHash, `0x${'aa'.repeat(20)}`)
    await setHead(a2.blockHash)
    expect(await latest()).toBe(a2.blockHash)
    expect(await byNumber('0x1')).toBe(a1.blockHash)
    const rA = await n.http<{ blockHash: string }>('eth_getTransactionReceipt', [sent.result])
    expect(rA.result?.blockHash).toBe(a1.blockHash)

    // Reorg to B (shorter): height 2 disappears, the transaction now sits in b1.
    await setHead(b1.blockHash)
    expect(await latest()).toBe(b1.blockHash)
    expect(await byNumber('0x2')).toBeUndefined()
    expect(await byNumber('0x1')).toBe(b1.blockHash)
    expect((await n.http<string>('eth_blockNumber')).result).toBe('0x1')
    const rB = await n.http<{ blockHash: string }>('eth_getTransactionReceipt', [sent.result])
    expect(rB.result?.blockHash).toBe(b1.blockHash)
    const tx = await n.http<{ blockHash: string }>('eth_getTransactionByBlockNumberAndIndex', ['latest', '0x0'])
    expect(tx.result?.blockHash).toBe(b1.blockHash)

    // And back to A, with safe set on the way.
    await setHead(a2.blockHash, a1.blockHash)
    expect(await latest()).toBe(a2.blockHash)
    expect(await byNumber('0x1')).toBe(a1.blockHash)
    expect((await n.http<{ blockHash: string }>('eth_getTransactionReceipt', [sent.result])).result?.blockHash).toBe(a1.blockHash)
    expect((await n.http<{ hash: string }>('eth_getBlockByNumber', ['safe', false])).result?.hash).toBe(a1.blockHash)
    // safe may not leave the head's chain.
    const bad = await n.engine('engine_forkchoiceUpdatedV3', [
      { headBlockHash: a2.blockHash, safeBlockHash: b1.blockHash, finalizedBlockHash: ZERO32 },
      null,
    ])
    expect(bad.error?.code).toBe(-38002)
    expect(await latest()).toBe(a2.blockHash)
  })

  it('rewinds the head to a canonical ancestor', async () => {
    const h = await latest()
    const one = await byNumber('0x1')
    await setHead(one!)
    expect(await latest()).toBe(one)
    expect(await byNumber('0x2')).toBeUndefined()
    await setHead(h)
    expect(await latest()).toBe(h)
  })
})
