import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, sendMined, signedTransfer, startTestNode } from '../../testing/testNode.js'

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
    // Mined before the send answers (the dev chain mines on demand).
    expect((await sendMined(n, 'eth_sendRawTransaction', signedTransfer(n.spec, 0, 0, { tip: 3_000_000_000n }))).receipt.blockNumber).toBe('0x1')
    expect((await n.http('eth_maxPriorityFeePerGas')).result).toBe('0xb2d05e00')
    const baseFee = BigInt((await n.http<{ baseFeePerGas: string }>('eth_getBlockByNumber', ['latest', false])).result!.baseFeePerGas)
    expect(BigInt((await n.http<string>('eth_gasPrice')).result!)).toBe(3_000_000_000n + baseFee)
  })
})
