import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, startTestNode } from '../../testing/testNode.js'
import { uint256Digits as word } from '../../testing/words.js'

// eth_getLogs over the log index, the polling filters, and both across a reorg (evm_revert moves head back through
// forkchoice; the next block replaces the reverted one).

/** Runtime: LOG2(topic0 = calldata[0:32], topic1 = calldata[32:64], data = calldata[64:]). */
const EMITTER_INIT = '0x601480600b6000396000f3366000600037602051600051604036036040a200'
const [A, B, C, D] = [1, 2, 3, 4].map((n) => `0x${word(0xa0 + n)}`) as [string, string, string, string]

interface Log {
  address: string
  topics: string[]
  data: string
  blockNumber: string
  blockHash: string
  transactionHash: string
  logIndex: string
  removed: boolean
}

let dev: TestNode
let capped: TestNode
let emitter: string
const alice = devAccounts()[5]!.address

async function mined(n: TestNode, hash: string): Promise<{ contractAddress: string | null; blockHash: string; blockNumber: string }> {
  await n.http('evm_mine')
  const r = (await n.http<{ contractAddress: string | null; blockHash: string; blockNumber: string }>('eth_getTransactionReceipt', [hash])).result
  if (r === null || r === undefined) throw new Error(`${hash} not mined`)
  return r
}

async function emit(n: TestNode, to: string, t0: string, t1: string, data: string): Promise<string> {
  const sent = await n.http<string>('eth_sendTransaction', [{ from: alice, to, data: `0x${t0.slice(2)}${t1.slice(2)}${data}` }])
  if (sent.error !== undefined) throw new Error(sent.error.message)
  return sent.result!
}

const getLogs = async (filter: object) => dev.http<Log[]>('eth_getLogs', [filter])

beforeAll(async () => {
  ;[dev, capped] = await Promise.all([
    startTestNode({ dev: { period: 3600 }, devAccounts: devAccounts() }),
    startTestNode({ dev: { period: 3600 }, devAccounts: devAccounts(), logsMaxResults: 2 }),
  ])
  const deploy = (await dev.http<string>('eth_sendTransaction', [{ from: alice, data: EMITTER_INIT }])).result!
  emitter = (await mined(dev, deploy)).contractAddress!
})
afterAll(async () => {
  await Promise.all([dev.close(), capped.close()])
})

describe('eth_getLogs', () => {
  let blocks: string[]
  beforeAll(async () => {
    blocks = []
    for (const [t0, t1, data] of [
      [A, B, '01'],
      [A, C, '02'],
      [D, B, '03'],
    ] as const) {
      blocks.push((await mined(dev, await emit(dev, emitter, t0, t1, data))).blockHash)
    }
  })

  it('filters by address and by topic position, OR lists and null wildcards, in chain order', async () => {
    const data = async (f: object) => ((await getLogs({ fromBlock: 'earliest', ...f })).result ?? []).map((l) => l.data.slice(-2))
    expect(await data({ address: emitter })).toEqual(['01', '02', '03'])
    expect(await data({ address: [emitter, `0x${'11'.repeat(20)}`] })).toEqual(['01', '02', '03'])
    expect(await data({ address: `0x${'11'.repeat(20)}` })).toEqual([])
    expect(await data({ topics: [A] })).toEqual(['01', '02'])
    expect(await data({ topics: [null, B] })).toEqual(['01', '03'])
    expect(await data({ topics: [[], [B]] })).toEqual(['01', '03'])
    expect(await data({ topics: [[A, D], B] })).toEqual(['01', '03'])
    expect(await data({ topics: [[A], [C]] })).toEqual(['02'])
    expect(await data({ address: emitter, topics: [D, C] })).toEqual([])
    // More positions than a log has topics never match (as geth).
    expect(await data({ topics: [null, null, null] })).toEqual([])
    expect((await getLogs({ blockHash: blocks[1] })).result!.map((l) => l.data.slice(-2))).toEqual(['02'])
  })

  it('answers every field of the schema, equal to the receipt’s log', async () => {
    const [log] = (await getLogs({ blockHash: blocks[0] })).result!
    const receipt = (await dev.http<{ logs: Log[] }>('eth_getTransactionReceipt', [log!.transactionHash])).result!
    expect(log).toEqual(receipt.logs[0])
    expect(Object.keys(log!).sort()).toEqual(
      [
        'address',
        'blockHash',
        'blockNumber',
        'blockTimestamp',
        'data',
        'logIndex',
        'removed',
        'topics',
        'transactionHash',
        'transactionIndex',
      ].sort(),
    )
  })

  it('refuses a reversed range, a range past the head, blockHash with a range, and more than four topics', async () => {
    const head = Number((await dev.http<string>('eth_blockNumber')).result)
    const code = async (f: object) => (await getLogs(f)).error?.code
    expect(await code({ fromBlock: '0x3', toBlock: '0x2' })).toBe(-32602)
    expect(await code({ fromBlock: '0x1', toBlock: `0x${(head + 1).toString(16)}` })).toBe(-32602)
    expect(await code({ fromBlock: `0x${(head + 1).toString(16)}`, toBlock: 'latest' })).toBe(-32602)
    expect(await code({ blockHash: blocks[0], fromBlock: '0x1' })).toBe(-32602)
    expect(await code({ topics: [A, A, A, A, A] })).toBe(-32602)
    expect(await code({ blockHash: `0x${'ee'.repeat(32)}` })).toBe(-32000)
    expect(await code({ address: '0x1234' })).toBe(-32602)
  })

  it('stops a query that would return more than --rpc.logs.maxresults logs', async () => {
    const deploy = (await capped.http<string>('eth_sendTransaction', [{ from: alice, data: EMITTER_INIT }])).result!
    const at = (await mined(capped, deploy)).contractAddress!
    for (const d of ['01', '02', '03']) await mined(capped, await emit(capped, at, A, B, d))
    expect((await capped.http('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x3' }])).result).toHaveLength(2)
    const over = await capped.http('eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }])
    expect(over.error).toEqual({ code: -32005, message: 'query returned more than 2 results' })
  })
})

describe('filters', () => {
  it('deliver new logs, blocks and transactions once; after a reorg, the reverted logs with removed: true', async () => {
    const logFilter = (await dev.http<string>('eth_newFilter', [{ address: emitter, topics: [A] }])).result!
    const blockFilter = (await dev.http<string>('eth_newBlockFilter')).result!
    const txFilter = (await dev.http<string>('eth_newPendingTransactionFilter')).result!
    const changes = async <T>(id: string) => (await dev.http<T[]>('eth_getFilterChanges', [id])).result!

    const kept = await emit(dev, emitter, A, B, '10')
    const keptBlock = (await mined(dev, kept)).blockHash
    const snap = (await dev.http<string>('evm_snapshot')).result!
    const undone = await emit(dev, emitter, A, C, '11')
    const undoneBlock = await mined(dev, undone)
    await emit(dev, emitter, D, C, '12') // another topic: not this filter's

    expect(await changes<string>(txFilter)).toHaveLength(3)
    expect(await changes<string>(txFilter)).toEqual([])
    expect(await changes<string>(blockFilter)).toEqual([keptBlock, undoneBlock.blockHash])
    expect((await changes<Log>(logFilter)).map((l) => [l.data.slice(-2), l.removed])).toEqual([
      ['10', false],
      ['11', false],
    ])
    expect(await changes<Log>(logFilter)).toEqual([])

    // Revert the block with '11' and make a different block at its height, without it.
    expect((await dev.http('evm_revert', [snap])).result).toBe(true)
    const parent = (await dev.http<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).result!
    await dev.http('evm_setNextBlockTimestamp', [`0x${(Number(parent.timestamp) + 7).toString(16)}`])
    const replaced = (await mined(dev, await emit(dev, emitter, A, D, '13'))).blockHash
    expect(replaced).not.toBe(undoneBlock.blockHash)

    const afterReorg = await changes<Log>(logFilter)
    expect(afterReorg.filter((l) => l.removed).map((l) => [l.data.slice(-2), l.blockHash])).toEqual([['11', undoneBlock.blockHash]])
    expect(afterReorg.filter((l) => !l.removed).map((l) => l.data.slice(-2))).toContain('13')
    expect(await changes<string>(blockFilter)).toEqual([replaced])
    // The index is exact after the reorg: the reverted block's log is not in a range query unless re-mined.
    const inRange = (await getLogs({ fromBlock: undoneBlock.blockNumber, toBlock: 'latest', address: emitter })).result!
    expect(inRange.every((l) => l.blockHash !== undoneBlock.blockHash)).toBe(true)

    const all = (await dev.http<Log[]>('eth_getFilterLogs', [logFilter])).result!
    expect(all.every((l) => !l.removed && l.topics[0] === A)).toBe(true)
    expect((await dev.http('eth_uninstallFilter', [logFilter])).result).toBe(true)
    expect((await dev.http('eth_uninstallFilter', [logFilter])).result).toBe(false)
    expect((await dev.http('eth_getFilterChanges', [logFilter])).error?.code).toBe(-32000)
    expect((await dev.http('eth_getFilterLogs', [blockFilter])).error?.code).toBe(-32000)
  })
})
