import { describe, expect, it } from 'vitest'
import { spawnNode } from '../testing/spawnNode.js'
import { BUILT_CLI, tempDatadir } from '../testing/paths.js'
import { devAccounts } from '../chain/dev.js'

// SIGTERM with requests in flight: each one received is answered in full, the rest are refused with 503 (never a
// reset connection or "-32603 Terminating worker thread"), and the process exits 0.

describe('SIGTERM', () => {
  it('finishes what was received, then exits 0', async () => {
    const node = await spawnNode(
      ['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', tempDatadir('sigterm'), '--no-mining', '--workers', '1'],
      120_000,
      BUILT_CLI,
    )
    const address = devAccounts()[0]!.address
    const batch = JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'eth_getBalance', params: [address, 'latest'] })),
    )
    let firstReply: () => void = () => {}
    const first = new Promise<void>((r) => {
      firstReply = r
    })
    const requests = Array.from({ length: 8 }, async () => {
      const res = await fetch(node.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: batch })
      firstReply()
      return { status: res.status, text: await res.text() }
    })
    await first
    const exited = new Promise<number | null>((r) => node.process.once('exit', (code) => r(code)))
    node.process.kill('SIGTERM')
    const replies = await Promise.all(requests)
    expect(await exited).toBe(0)
    let answered = 0
    for (const r of replies) {
      if (r.status === 503) continue
      expect(r.status).toBe(200)
      const items = JSON.parse(r.text) as { result?: string; error?: unknown }[]
      expect(items).toHaveLength(100)
      for (const item of items) expect(item.error).toBeUndefined()
      answered++
    }
    expect(answered).toBeGreaterThan(1)
    expect(node.log()).toContain('stopped')
  })
})
