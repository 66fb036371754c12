import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, receiptNow, signedTransfer, startTestNode } from '../testing/testNode.js'

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {} })
})
afterAll(async () => {
  await n.close()
})

describe('dev mode', () => {
  it('mines a sent transaction through the engine path before the send answers: its receipt is there at once', async () => {
    const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 5, 0)])
    expect(sent.error).toBeUndefined()
    // One read, no waiting: the send answers once the block holding it is made.
    const receipt = await receiptNow(n, sent.result!)
    expect(receipt.status).toBe('0x1')
    expect(receipt.blockNumber).toBe('0x1')
    expect((await n.http<string>('eth_blockNumber')).result).toBe('0x1')
    // The dev driver marks its blocks safe and finalized.
    expect((await n.http<{ number: string }>('eth_getBlockByNumber', ['safe', false])).result?.number).toBe('0x1')
    expect((await n.http<{ number: string }>('eth_getBlockByNumber', ['finalized', false])).result?.number).toBe('0x1')
  })

  it('answers concurrent sends each once the block that holds it is made', async () => {
    // Sent together, some arrive while the block of another is being made (a block that read the pool before them).
    // Each receipt is read right after its own send answers.
    const receipts = await Promise.all(
      [1, 2, 3, 4].map(async (from) => {
        const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, from, 0)])
        expect(sent.error).toBeUndefined()
        return receiptNow(n, sent.result!)
      }),
    )
    expect(receipts.map((r) => r.status)).toEqual(['0x1', '0x1', '0x1', '0x1'])
  })
})
