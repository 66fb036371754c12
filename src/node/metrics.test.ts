import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'
import { collectingLogger } from '../util/logger.js'

let n: TestNode
const lines: string[] = []
beforeAll(async () => {
  n = await startTestNode({ metrics: true, log: collectingLogger(lines, 'info') })
})
afterAll(async () => {
  await n.close()
})

const scrape = async () => (await fetch(`http://127.0.0.1:${n.node.metricsPort}/metrics`)).text()

describe('metrics and logs', () => {
  it('counts calls, errors and blocks, and reports the chain, the pool and the lanes', async () => {
    await n.http('eth_chainId')
    await n.http('eth_chainId')
    await n.http('eth_getTransactionReceipt', ['0x12'])
    await n.http('eth_noSuchMethod')
    await n.http('eth_sendRawTransaction', [signedTransfer(n.spec, 0, 0)])
    const head = (await n.http<{ hash: string }>('eth_getBlockByNumber', ['latest', false])).result!.hash
    const fc = await n.engine<{ payloadId: string }>('engine_forkchoiceUpdatedV3', [
      { headBlockHash: head, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 },
      { timestamp: '0x1000', prevRandao: ZERO32, suggestedFeeRecipient: `0x${'00'.repeat(20)}`, withdrawals: [], parentBeaconBlockRoot: ZERO32 },
    ])
    const p = (await n.engine<{ executionPayload: { blockHash: string } }>('engine_getPayloadV5', [fc.result!.payloadId])).result!.executionPayload
    await n.engine('engine_newPayloadV4', [p, [], ZERO32, []])
    await n.engine('engine_forkchoiceUpdatedV3', [{ headBlockHash: p.blockHash, safeBlockHash: p.blockHash, finalizedBlockHash: ZERO32 }, null])
    const text = await scrape()
    expect(text).toContain('sponge_rpc_requests_total{method="eth_chainId",port="http"} 2')
    expect(text).toContain('sponge_rpc_errors_total{method="eth_getTransactionReceipt",port="http",code="-32602"} 1')
    expect(text).toContain('sponge_rpc_errors_total{method="unknown",port="http",code="-32601"} 1')
    expect(text).toContain('sponge_rpc_requests_total{method="engine_newPayloadV4",port="auth"} 1')
    expect(text).toContain('sponge_block_validation_seconds_count{status="VALID"} 1')
    expect(text).toContain('sponge_block_gas_total 21000')
    expect(text).toContain('sponge_chain_block_number{label="head"} 1')
    expect(text).toContain('sponge_chain_block_number{label="safe"} 1')
    expect(text).toContain('sponge_txpool_transactions 0')
    expect(text).toMatch(/sponge_pool_in_flight\{lane="public"\} 0/)
    expect(text).toMatch(/sponge_pool_task_seconds_count\{lane="engine",op="newPayload"\} 1/)
  })

  it('logs one line per validated block and nothing for bad requests', () => {
    const records = lines.map((l) => JSON.parse(l) as { msg: string; level: number; number?: number })
    expect(records.filter((r) => r.msg === 'validated block').map((r) => r.number)).toEqual([1])
    expect(records.filter((r) => r.level >= 40)).toEqual([])
  })
})
