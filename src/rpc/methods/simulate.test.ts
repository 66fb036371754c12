import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, startTestNode } from '../../testing/testNode.js'

// eth_simulateV1 on the dev chain: blocks built on the head's state, chained, with the spec's errors.

let node: TestNode
beforeAll(async () => {
  node = await startTestNode()
})
afterAll(async () => {
  await node.close()
})

const A = '0xc000000000000000000000000000000000000000'
const B = '0xc100000000000000000000000000000000000000'
const D = '0xc300000000000000000000000000000000000000'
/** Runtime: LOG1(topic = 0xff…ff) with no data, then stops. */
const LOGGER = '0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff80600080a1600080f3'
/** Runtime: stores CALLVALUE at slot 0, reverts when called with no value (`revert(0, 0)`). */
const REVERTS_WITHOUT_VALUE = '0x3460095760006000fd5b34600055'

interface SimBlock {
  number: string
  hash: string
  parentHash: string
  timestamp: string
  transactions: unknown[]
  calls: {
    status: string
    gasUsed: string
    returnData: string
    logs: { address: string; blockHash: string; logIndex: string; topics: string[] }[]
    error?: { code: number }
  }[]
}

const simulate = (payload: object, block: unknown = 'latest') => node.http<SimBlock[]>('eth_simulateV1', [payload, block])

describe('eth_simulateV1', () => {
  it('chains blocks on the head: numbers, 12 s steps, parent hashes, and state carried from block to block', async () => {
    const head = (await node.http<{ number: string; hash: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false])).result!
    const r = await simulate({
      blockStateCalls: [
        { stateOverrides: { [A]: { balance: '0x3e8' } }, calls: [{ from: A, to: B, value: '0x3e8' }] },
        { blockOverrides: { number: `0x${(Number(head.number) + 3).toString(16)}` }, calls: [{ from: B, to: A, value: '0x3e8' }] },
      ],
    })
    expect(r.error).toBeUndefined()
    const blocks = r.result!
    expect(blocks.map((b) => Number(b.number) - Number(head.number))).toEqual([1, 2, 3])
    expect(blocks.map((b) => Number(b.timestamp) - Number(head.timestamp))).toEqual([12, 24, 36])
    expect(blocks[0]!.parentHash).toBe(head.hash)
    expect(blocks[1]!.parentHash).toBe(blocks[0]!.hash)
    expect(blocks[2]!.parentHash).toBe(blocks[1]!.hash)
    expect(blocks[1]!.calls).toEqual([])
    // B received A's value in the first block and sends it back in the third.
    expect(blocks[2]!.calls[0]).toMatchObject({ status: '0x1', gasUsed: '0x5208' })
    // Nothing was stored: the head is unchanged.
    expect((await node.http('eth_blockNumber')).result).toBe(head.number)
  })

  it('reports logs with the simulated block hash, reverts and failures per call, and full transactions on request', async () => {
    const r = await simulate({
      blockStateCalls: [
        {
          stateOverrides: { [B]: { code: LOGGER }, [A]: { code: REVERTS_WITHOUT_VALUE } },
          calls: [
            { from: A, to: B },
            { from: B, to: A },
            { from: D, to: B, gas: '0x5300' },
          ],
        },
      ],
      returnFullTransactions: true,
    })
    expect(r.error).toBeUndefined()
    const [b] = r.result!
    const [logged, reverted, outOfGas] = b!.calls
    expect(logged!.logs).toHaveLength(1)
    expect(logged!.logs[0]).toMatchObject({ address: B, blockHash: b!.hash, logIndex: '0x0', topics: [`0x${'ff'.repeat(32)}`] })
    expect(reverted).toMatchObject({ status: '0x0', error: { code: 3 } })
    expect(outOfGas).toMatchObject({ status: '0x0', error: { code: -32015 } })
    expect(b!.transactions[0]).toMatchObject({ from: A, to: B, blockHash: b!.hash, v: '0x0', r: '0x0', s: '0x0' })
  })

  it('reports ether transfers as logs with traceTransfers', async () => {
    const r = await simulate({
      blockStateCalls: [{ stateOverrides: { [A]: { balance: '0x10' } }, calls: [{ from: A, to: B, value: '0x7' }] }],
      traceTransfers: true,
    })
    const log = r.result![0]!.calls[0]!.logs[0]!
    expect(log.address).toBe(`0x${'ee'.repeat(20)}`)
    expect(log.topics).toEqual([
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      `0x${A.slice(2).padStart(64, '0')}`,
      `0x${B.slice(2).padStart(64, '0')}`,
    ])
  })

  it('answers the spec’s error codes', async () => {
    const code = async (payload: object) => (await simulate(payload)).error?.code
    const head = Number((await node.http<string>('eth_blockNumber')).result)
    const at = (n: number) => `0x${n.toString(16)}`
    expect(await code({ blockStateCalls: [{ blockOverrides: { number: at(head) } }] })).toBe(-38020)
    expect(await code({ blockStateCalls: [{}, { blockOverrides: { time: '0x1' } }] })).toBe(-38021)
    expect(await code({ blockStateCalls: [{ blockOverrides: { number: at(head + 257) } }] })).toBe(-38026)
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, to: B, nonce: '0x1' }] }], validation: true })).toBe(-38011)
    expect(
      await code({ blockStateCalls: [{ stateOverrides: { [A]: { nonce: '0x2' } }, calls: [{ from: A, to: B, nonce: '0x1' }] }], validation: true }),
    ).toBe(-38010)
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, to: B, value: '0x1' }] }] })).toBe(-38014)
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, to: B, gas: '0x1' }] }] })).toBe(-38013)
    expect(await code({ blockStateCalls: [{ blockOverrides: { gasLimit: '0x5208' }, calls: [{ from: A, to: B, gas: '0x5209' }] }] })).toBe(-38015)
    expect(
      await code({
        blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0x7' }, calls: [{ from: A, to: B, maxFeePerGas: '0x1' }] }],
        validation: true,
      }),
    ).toBe(-38012)
    expect(await code({ blockStateCalls: [{ stateOverrides: { [B]: { movePrecompileToAddress: A } } }] })).toBe(-32000)
    expect(await code({ blockStateCalls: [{ calls: [{ from: A, input: `0x${'00'.repeat(49_153)}` }] }] })).toBe(-38025)
    expect((await node.http('eth_simulateV1', [{ blockStateCalls: 'x' }])).error?.code).toBe(-32602)
    // Found by the fuzzer: a time beyond uint64 reached EthereumJS's fork selection and came back -32603.
    expect(await code({ blockStateCalls: [{ blockOverrides: { time: `0x${'f'.repeat(20)}` } }] })).toBe(-32602)
    expect((await node.http('eth_call', [{ to: A }, 'latest', null, { time: `0x${'f'.repeat(20)}` }])).error?.code).toBe(-32602)
  })

  it('without validation, a call paying less than an overridden base fee runs free (as geth)', async () => {
    const r = await simulate({ blockStateCalls: [{ blockOverrides: { baseFeePerGas: '0xa' }, calls: [{ from: B, to: B, maxFeePerGas: '0x0' }] }] })
    expect(r.result![0]).toMatchObject({ baseFeePerGas: '0xa', calls: [{ status: '0x1' }] })
  })
})
