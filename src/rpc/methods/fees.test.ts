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

describe("eth_feeHistory's block count", () => {
  it("takes what geth's math.HexOrDecimal64 takes: a hex or decimal string, or a JSON number", async () => {
    const oldest = async (count: unknown) =>
      (await n.http<{ oldestBlock: string; gasUsedRatio: number[] }>('eth_feeHistory', [count, '0x1', []])).result?.gasUsedRatio.length
    // Block 1 exists (the test above mined it): two blocks end there.
    for (const count of ['0x2', '0X2', '0x02', '2', '02', 2]) expect(await oldest(count), JSON.stringify(count)).toBe(2)
    // `cast rpc eth_feeHistory 4 latest '[25,75]'` sends the number 4.
    expect((await n.http<{ reward: string[][] }>('eth_feeHistory', [4, 'latest', [25, 75]])).result?.reward).toBeDefined()
    // geth's ParseUint64: the empty string is zero, which answers an empty history.
    expect((await n.http<{ oldestBlock: string }>('eth_feeHistory', ['', 'latest', []])).result).toMatchObject({
      oldestBlock: '0x0',
      gasUsedRatio: [],
    })
  })

  it('refuses what geth refuses: negative, fractional, non-numeric, past uint64', async () => {
    for (const count of [-1, 1.5, '0x', '0xg', 'ten', '-1', '1e3', '18446744073709551616', `0x1${'0'.repeat(16)}`, null, true]) {
      expect((await n.http('eth_feeHistory', [count, 'latest', []])).error?.code, JSON.stringify(count)).toBe(-32602)
    }
    // The largest uint64 is accepted, and capped as any count past 1024 is.
    expect((await n.http('eth_feeHistory', ['18446744073709551615', 'latest', []])).error).toBeUndefined()
  })
})
