import { describe, expect, it } from 'vitest'
import { engineBlock, latestHash, payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, signedTransfer, startTestNode } from '../testing/testNode.js'
import { collectingLogger } from '../util/logger.js'

// Each test starts its own node with metrics and a collecting logger, and makes what it reads: it passes alone.

async function withMetricsNode(test: (n: TestNode, lines: string[]) => Promise<void>): Promise<void> {
  const lines: string[] = []
  const n = await startTestNode({ metrics: true, log: collectingLogger(lines, 'info') })
  try {
    await test(n, lines)
  } finally {
    await n.close()
  }
}

/** A pooled transfer built into block 1 through the Engine API, imported, made head and safe. */
async function blockOneWithTransfer(n: TestNode): Promise<void> {
  expect((await n.http('eth_sendRawTransaction', [signedTransfer(n.spec, 0, 0)])).error).toBeUndefined()
  const p = await engineBlock(n, await latestHash(n), payloadAttributes(0x1000), { safe: true })
  expect(p.transactions).toHaveLength(1)
}

describe('metrics and logs', () => {
  it('counts calls, errors and blocks, and reports the chain, the pool and the lanes', async () => {
    await withMetricsNode(async (n) => {
      await n.http('eth_chainId')
      await n.http('eth_chainId')
      await n.http('eth_getTransactionReceipt', ['0x12'])
      await n.http('eth_noSuchMethod')
      await blockOneWithTransfer(n)
      const text = await (await fetch(`http://127.0.0.1:${n.node.metricsPort}/metrics`)).text()
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
  })

  it('reports where the executed blocks spent their time, by phase', async () => {
    // The block is built on another node: a node's own build is stored when built, and its newPayload executes nothing.
    const builder = await startTestNode()
    try {
      expect((await builder.http('eth_sendRawTransaction', [signedTransfer(builder.spec, 0, 0)])).error).toBeUndefined()
      const payload = await engineBlock(builder, await latestHash(builder), payloadAttributes(0x1000))
      await withMetricsNode(async (n) => {
        const phasesNow = async () => {
          const text = await (await fetch(`http://127.0.0.1:${n.node.metricsPort}/metrics`)).text()
          return {
            blocks: Number(/^sponge_block_phase_blocks_total (\d+)$/m.exec(text)?.[1]),
            phases: [...text.matchAll(/^sponge_block_phase_seconds_total\{phase="(\w+)"\} ([\d.e+-]+)$/gm)].map((m) => m[1]),
          }
        }
        expect((await phasesNow()).blocks).toBe(0)
        const status = await n.engine<{ status: string }>('engine_newPayloadV4', [payload, [], `0x${'00'.repeat(32)}`, []])
        expect(status.result?.status).toBe('VALID')
        expect(await phasesNow()).toEqual({
          blocks: 1,
          phases: ['senders', 'execution', 'stateReads', 'receipts', 'commit', 'record', 'store', 'other'],
        })
      })
    } finally {
      await builder.close()
    }
  })

  it('logs one line per validated block and nothing for bad requests', async () => {
    await withMetricsNode(async (n, lines) => {
      await blockOneWithTransfer(n)
      // Refused requests of several kinds: malformed params, an unknown method, a body that is not JSON.
      expect((await n.http('eth_getTransactionReceipt', ['0x12'])).error?.code).toBe(-32602)
      expect((await n.http('eth_noSuchMethod')).error?.code).toBe(-32601)
      const notJson = await fetch(`http://127.0.0.1:${n.node.httpPort}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      })
      expect(((await notJson.json()) as { error: { code: number } }).error.code).toBe(-32700)
      const records = lines.map((l) => JSON.parse(l) as { msg: string; level: number; number?: number })
      expect(records.filter((r) => r.msg === 'validated block').map((r) => r.number)).toEqual([1])
      expect(records.filter((r) => r.level >= 40)).toEqual([])
    })
  })
})
