import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logEmitter } from '../../testing/asm.js'
import { type TestNode, devGenesisWith, sendMined, signedTransfer, startTestNode } from '../../testing/testNode.js'
import { WsClient } from '../../testing/wsClient.js'

// No request freezes the node (issue 31 items 2 and 3). A batch of 100 whole-chain eth_getLogs ran every query on
// the serving thread one after another: nothing else was answered on either port meanwhile (engine_getPayloadV5
// waited 25 s), and a batch whose reply had passed its bound still ran all of its queries. Log queries now run a
// slice at a time in turns of the serving thread (other requests are answered between two), then in the lane; a
// batch's promised calls start a few at a time, and none once its reply has passed the bound.

const EMITTER = '0x00000000000000000000000000000000000e4a7e'
const TOPIC = `0x${'5e'.repeat(32)}` as const
/** Logs of one call of the emitter. */
const LOGS_PER_BLOCK = 50
/** LOGS_PER_BLOCK times LOG1(TOPIC) of the block number. */
const EMITTER_CODE = logEmitter(LOGS_PER_BLOCK, TOPIC, 32)
const BLOCKS = 25

/** A dev node whose blocks 1..BLOCKS each hold one call of the emitter: LOGS_PER_BLOCK logs a block. */
async function nodeWithLogs(opts: { maxBatchReplyBytes?: number; logsMaxResults?: number } = {}): Promise<TestNode> {
  const n = await startTestNode({ genesis: devGenesisWith({ [EMITTER]: EMITTER_CODE }), dev: {}, metrics: true, ...opts })
  for (let i = 0; i < BLOCKS; i++)
    await sendMined(n, 'eth_sendRawTransaction', signedTransfer(n.spec, 0, i, { to: EMITTER, value: 0n, gas: 200_000n }))
  return n
}

const hex = (v: number) => `0x${v.toString(16)}`

async function metric(n: TestNode, line: RegExp): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${n.node.metricsPort}/metrics`)).text()
  const m = line.exec(text)
  return m === null ? 0 : Number(m[1])
}
const laneLogTasks = (n: TestNode) => metric(n, /sponge_pool_task_seconds_count\{lane="public",op="logs"\} (\d+)/)

describe('a batch of log queries', () => {
  let n: TestNode
  beforeAll(async () => {
    // One whole-chain reply (1,250 logs) passes the batch's bound.
    n = await nodeWithLogs({ maxBatchReplyBytes: 100_000 })
  }, 60_000)
  afterAll(async () => {
    await n.close()
  })

  it('starts no more queries once its reply has passed its bound', async () => {
    const whole = { fromBlock: '0x1', toBlock: hex(BLOCKS) }
    expect((await n.http<unknown[]>('eth_getLogs', [whole])).result).toHaveLength(BLOCKS * LOGS_PER_BLOCK)
    const before = await laneLogTasks(n)
    const r = await n.batch(Array.from({ length: 20 }, () => ['eth_getLogs', [whole]]))
    expect(r.replies[0]!.result).toHaveLength(BLOCKS * LOGS_PER_BLOCK)
    for (const reply of r.replies.slice(1)) expect(reply.error?.code).toBe(-32003)
    // Each whole-chain query ends in the lane (past the serving thread's slice). Before, all 20 ran there; now the
    // first answer and the few started beside it, no more.
    const ran = (await laneLogTasks(n)) - before
    expect(ran).toBeGreaterThanOrEqual(1)
    expect(ran).toBeLessThanOrEqual(8)
  })
})

describe('a log query on the serving thread', () => {
  let n: TestNode
  beforeAll(async () => {
    // A query of 20 blocks looks at 1,000 logs, all matching, and is refused at the last: a full slice of work
    // and a reply of a few bytes (a WebSocket consumer megabytes behind is disconnected).
    n = await nodeWithLogs({ logsMaxResults: 999 })
  }, 60_000)
  afterAll(async () => {
    await n.close()
  })

  it('lets another request on the same connection, and an Engine API call, be answered before a batch of them', async () => {
    const ws = await WsClient.open(`ws://127.0.0.1:${n.node.httpPort}`)
    try {
      // 100 queries of 20 blocks (1,000 logs each: one slice of the serving thread's): before, the batch ran them
      // all at once on the serving thread and answered before reading the next message.
      const batch = Array.from({ length: 100 }, (_, i) => ({
        jsonrpc: '2.0',
        id: 1000 + i,
        method: 'eth_getLogs',
        params: [{ fromBlock: hex(1 + (i % 5)), toBlock: hex(20 + (i % 5)) }],
      }))
      const order: string[] = []
      let batchReplies: { error?: { code: number } }[] = []
      const batchDone = new Promise<void>((resolve) => {
        ws.ws.on('message', (data) => {
          const m = JSON.parse(String(data)) as { id?: number } | { error?: { code: number } }[]
          if (!Array.isArray(m)) return
          batchReplies = m
          order.push('batch')
          resolve()
        })
      })
      ws.ws.send(JSON.stringify(batch))
      const chainId = ws.call<string>('eth_chainId')
      expect((await chainId).result).toBe(`0x${n.spec.chainId.toString(16)}`)
      order.push('eth_chainId')
      // The batch is still being answered: an Engine API call now is answered before it is done.
      const engine = await n.engine<string>('eth_blockNumber')
      order.push('engine')
      expect(engine.result).toBe(hex(BLOCKS))
      await batchDone
      expect(order).toEqual(['eth_chainId', 'engine', 'batch'])
      expect(batchReplies.map((r) => r.error?.code)).toEqual(batch.map(() => -32005))
    } finally {
      ws.ws.close()
    }
  })
})
