import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectingLogger } from '../../util/logger.js'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, startTestNode } from '../../testing/testNode.js'

// Refusals of a call reach the client through the one table (rpc/errorMap.ts), from the serving thread or across the
// worker hop: with the code geth gives them and geth's message, and nothing logged as the node's failure. An
// oversized init code in eth_call was -32603; a value sent to BLAKE2F with no input was EthereumJS's "value out of
// range".

let n: TestNode
const logged: string[] = []
beforeAll(async () => {
  n = await startTestNode({ log: collectingLogger(logged, 'info'), apis: ['eth'], devAccounts: devAccounts() })
})
afterAll(async () => {
  await n.close()
})

const from = devAccounts()[0]!.address
const INIT_CODE = `0x${'00'.repeat(49_153)}`
const TOO_LARGE = 'max initcode size exceeded: code size 49153 limit 49152'

describe('call refusals as the client hears them', () => {
  it("a value sent to BLAKE2F with no input: geth's 'invalid input length' from eth_call, eth_estimateGas and the dev wallet's send", async () => {
    const call = { from, to: '0x0000000000000000000000000000000000000009', value: '0x1' }
    const expected = { code: -32000, message: 'invalid input length' }
    expect((await n.http('eth_call', [call])).error).toEqual(expected)
    expect((await n.http('eth_estimateGas', [call])).error).toEqual(expected)
    expect((await n.http('eth_sendTransaction', [call])).error).toEqual(expected)
  })

  it("an oversized init code: eth_call and eth_estimateGas -32000, eth_simulateV1 -38025, in geth's words", async () => {
    // geth's words for each method: eth_call's "err: … (supplied gas N)", eth_estimateGas's "failed with N gas: …".
    expect((await n.http('eth_call', [{ from, input: INIT_CODE }])).error).toEqual({
      code: -32000,
      message: `err: ${TOO_LARGE} (supplied gas 50000000)`,
    })
    expect((await n.http('eth_estimateGas', [{ from, input: INIT_CODE }])).error).toEqual({
      code: -32000,
      message: `failed with 16777216 gas: ${TOO_LARGE}`,
    })
    // eth_simulateV1's, as its applyMessageWithEVM words them: the gas is the block's (the dev genesis's 36M).
    const sim = await n.http('eth_simulateV1', [{ blockStateCalls: [{ calls: [{ from, input: INIT_CODE }] }] }, 'latest'])
    expect(sim.error).toEqual({ code: -38025, message: `err: ${TOO_LARGE} (supplied gas 36000000)` })
  })

  it('a fee cap under the base fee in a validating simulation: -38012', async () => {
    const sim = await n.http('eth_simulateV1', [
      { blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0x7' }, calls: [{ from, to: from, maxFeePerGas: '0x1' }] }], validation: true },
      'latest',
    ])
    expect(sim.error?.code).toBe(-38012)
  })

  it('logged nothing as an internal error', () => {
    expect(logged.filter((l) => /"level":(50|40)|internal error/.test(l))).toEqual([])
  })
})
