import { rmSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { tempDatadir } from '../testing/paths.js'
import { spawnNode } from '../testing/spawnNode.js'
import { type ThreadSeen, threadsSeen } from '../testing/threadsSeen.js'
import { WsClient } from '../testing/wsClient.js'
import { PUBLIC_NICE_STEPS } from '../util/threadRole.js'

// The engine's threads come first (issue 31 item 3; docs/design.md): a node's serving threads and public lane
// workers run at a higher nice than its main thread (the Engine API, the writer) and its engine lane, so that under
// a public flood the scheduler gives the engine a core first. Read from /proc of the built node: Linux only.

async function call(url: string, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return res.json()
}

/** The threads of `pid` that carry `name`. */
const named = (threads: ThreadSeen[], name: string) => threads.filter((t) => t.name === name)

describe.runIf(process.platform === 'linux')('the public side runs at a higher nice than the engine', () => {
  for (const threads of [2, 1]) {
    it(`with --http.threads ${threads}: serving threads and public workers above the main thread and the engine lane`, async () => {
      const datadir = tempDatadir('nice')
      // With a block period, dev mode builds its blocks in the engine lane (mining on demand builds them on the main
      // thread, and the engine lane's workers, started at once, may still be loading when a test looks).
      const sized = ['--http.threads', String(threads), '--workers', String(threads)]
      const node = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--dev.period', '1', ...sized])
      const ws = await WsClient.open(node.httpUrl.replace('http://', 'ws://'))
      try {
        const pid = node.process.pid!
        const sub = await ws.call<string>('eth_subscribe', ['newHeads'])
        expect(sub, JSON.stringify(sub)).toHaveProperty('result')
        const [alice, bob] = devAccounts()
        const sent = await call(node.httpUrl, 'eth_sendTransaction', [{ from: alice!.address, to: bob!.address, value: '0x1' }])
        expect(sent, JSON.stringify(sent)).toHaveProperty('result')
        // A head announced: a block built by the engine lane's worker, which had taken its role by then (its
        // module's first statement after the imports).
        await ws.next((m) => m.params?.subscription === sub.result)
        // eth_simulateV1 always runs in a public lane, whose worker starts for it.
        const answer = await call(node.httpUrl, 'eth_simulateV1', [{ blockStateCalls: [{ calls: [] }] }, 'latest'])
        expect(answer, JSON.stringify(answer)).toHaveProperty('result')
        const seen = threadsSeen(pid)
        const engineNice = seen.find((t) => t.tid === pid)!.nice
        const publicNice = Math.min(19, engineNice + PUBLIC_NICE_STEPS)

        expect(named(seen, 'engine lane').map((t) => t.nice)).toEqual([engineNice])
        expect(named(seen, 'serving thread').map((t) => t.nice)).toEqual(threads === 1 ? [] : Array(threads).fill(publicNice))
        const publicWorkers = named(seen, 'public lane')
        expect(publicWorkers.length).toBeGreaterThan(0)
        for (const t of publicWorkers) expect(t.nice).toBe(publicNice)
        // Nothing else was reniced: a thread started by a reniced one would inherit its nice (libuv's pool, say).
        const others = seen.filter((t) => t.name !== 'serving thread' && t.name !== 'public lane')
        for (const t of others) expect(t, t.name).toMatchObject({ nice: engineNice })
      } finally {
        ws.ws.close()
        await node.stop()
        rmSync(datadir, { recursive: true, force: true })
      }
    })
  }
})
