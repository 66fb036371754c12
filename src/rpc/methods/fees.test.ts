import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, signedTransfer, startTestNode } from '../../testing/testNode.js'

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {} })
})
afterAll(async () => {
  await n.close()
})

describe('eth_maxPriorityFeePerGas and eth_gasPrice', () => {
  it('suggest 1 gwei with nothing to go on, then the tips recent blocks paid', async () => {
    expect((await n.http('eth_maxPriorityFeePerGas')).result).toBe('0x3b9aca00')
    const hash = (await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 0, 0, { tip: 3_000_000_000n })])).result!
    let receipt: { blockNumber: string } | null = null
    for (let i = 0; i < 500 && receipt === null; i++) {
      receipt = (await n.http<{ blockNumber: string } | null>('eth_getTransactionReceipt', [hash])).result ?? null
      if (receipt === null) await new Promise((r) => setTimeout(r, 10))
    }
    expect((await n.http('eth_maxPriorityFeePerGas')).result).toBe('0xb2d05e00')
    const baseFee = BigInt((await n.http<{ baseFeePerGas: string }>('eth_getBlockByNumber', ['latest', false])).result!.baseFeePerGas)
    expect(BigInt((await n.http<string>('eth_gasPrice')).result!)).toBe(3_000_000_000n + baseFee)
  })
})
