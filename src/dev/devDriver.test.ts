import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, signedTransfer, startTestNode } from '../testing/testNode.js'

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {} })
  // Warm the worker (first use loads EthereumJS in it), as a running node would be.
  await n.http('eth_getBalance', [`0x${'00'.repeat(20)}`, 'latest'])
})
afterAll(async () => {
  await n.close()
})

describe('dev mode', () => {
  it('mines a sent transaction through the engine path: its receipt is there within a second', async () => {
    const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 5, 0)])
    expect(sent.error).toBeUndefined()
    const deadline = Date.now() + 1000
    let receipt: { status: string; blockNumber: string } | null = null
    while (receipt === null && Date.now() < deadline) {
      receipt = (await n.http<{ status: string; blockNumber: string } | null>('eth_getTransactionReceipt', [sent.result])).result ?? null
      if (receipt === null) await new Promise((r) => setTimeout(r, 20))
    }
    expect(receipt).not.toBeNull()
    expect(receipt!.status).toBe('0x1')
    expect(receipt!.blockNumber).toBe('0x1')
    expect((await n.http<string>('eth_blockNumber')).result).toBe('0x1')
    // The dev driver marks its blocks safe and finalized.
    expect((await n.http<{ number: string }>('eth_getBlockByNumber', ['finalized', false])).result?.number).toBe('0x1')
  })
})
