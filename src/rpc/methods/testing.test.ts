import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payloadAttributes as attrs } from '../../testing/engineBlocks.js'
import { type TestNode, signedTransfer, startTestNode } from '../../testing/testNode.js'

let on: TestNode
let off: TestNode
beforeAll(async () => {
  ;[on, off] = await Promise.all([startTestNode({ apis: ['eth', 'testing'] }), startTestNode()])
})
afterAll(async () => {
  await Promise.all([on.close(), off.close()])
})

describe('testing_buildBlockV1', () => {
  it('is not reachable unless testing is enabled', async () => {
    const g = (await off.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash
    expect((await off.http('testing_buildBlockV1', [g, attrs(100), [], null])).error?.code).toBe(-32601)
  })

  it('builds exactly the given transactions with the given extraData, and changes nothing', async () => {
    const g = (await on.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash
    const pooled = signedTransfer(on.spec, 2, 0)
    await on.http('eth_sendRawTransaction', [pooled])
    const given = signedTransfer(on.spec, 3, 0)
    const r = await on.http<{ executionPayload: { transactions: string[]; extraData: string; parentHash: string; blockHash: string } }>(
      'testing_buildBlockV1',
      [g, attrs(100), [given], '0x1234'],
    )
    expect(r.result?.executionPayload.transactions).toEqual([given])
    expect(r.result?.executionPayload.extraData).toBe('0x1234')
    expect(r.result?.executionPayload.parentHash).toBe(g)
    expect((await on.http('eth_getBlockByHash', [r.result!.executionPayload.blockHash, false])).result).toBeNull()
    expect((await on.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash).toBe(g)

    const empty = await on.http<{ executionPayload: { transactions: string[] } }>('testing_buildBlockV1', [g, attrs(100), [], null])
    expect(empty.result?.executionPayload.transactions).toEqual([])
    const fromPool = await on.http<{ executionPayload: { transactions: string[] } }>('testing_buildBlockV1', [g, attrs(100), null, null])
    expect(fromPool.result?.executionPayload.transactions).toEqual([pooled])
    // The pool still holds the transaction: building did not consume it.
    expect((await on.http<{ blockHash: null }>('eth_getTransactionByHash', [await hashOf(on, pooled)])).result).not.toBeNull()
  })

  it('refuses a transaction that cannot apply with the conventional message', async () => {
    const g = (await on.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash
    const r = await on.http('testing_buildBlockV1', [g, attrs(100), [signedTransfer(on.spec, 4, 5)], null])
    expect(r.error?.code).toBe(-32000)
    expect(r.error?.message).toMatch(/^nonce too high: address 0x[0-9a-fA-F]{40}, tx: 5 state: 0$/)
  })

  it('refuses an unknown parent and oversized extraData with -32602', async () => {
    expect((await on.http('testing_buildBlockV1', [`0x${'12'.repeat(32)}`, attrs(100), [], null])).error?.code).toBe(-32602)
    const g = (await on.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash
    expect((await on.http('testing_buildBlockV1', [g, attrs(100), [], `0x${'00'.repeat(33)}`])).error?.code).toBe(-32602)
  })
})

async function hashOf(n: TestNode, raw: string): Promise<string> {
  const { createTxFromRLP } = await import('@ethereumjs/tx')
  const { bytesToHex, hexToBytes } = await import('../../util/hex.js')
  return bytesToHex(createTxFromRLP(hexToBytes(raw), { common: n.spec.commonAt(1n, 10n ** 10n) }).hash())
}
