import { once } from 'node:events'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { type SpawnedNode, spawnNode, spawnReader } from '../testing/spawnNode.js'
import { WsClient } from '../testing/wsClient.js'
import { collectingLogger } from '../util/logger.js'
import { startReader } from './reader.js'

// Issue 31, item 4: readers that never lie. After the datadir was removed and a new node started on the same path,
// every reader said "the node is back", answered /health 200 with lag 0 and served the deleted chain; a reader beside
// a frozen node (SIGSTOP) answered 200 and its forwarded sends hung 60 s. Each process is spawned from the build, as
// an operator runs them; every wait is a bounded loop on what the reader answers.

interface Reply<T = unknown> {
  result?: T
  error?: { code: number; message: string }
}

interface HealthBody {
  status: string
  head?: number
  lag?: number
  reason?: string
}

async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<Reply<T>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    // Longer than any bound the reader keeps: a hang fails the test with this, not with the test's timeout.
    signal: AbortSignal.timeout(30_000),
  })
  return (await res.json()) as Reply<T>
}

async function health(url: string): Promise<{ status: number; body: HealthBody }> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(30_000) })
    return { status: res.status, body: (await res.json()) as HealthBody }
  } catch {
    // Refused for the moment a reader reopens its datadir (its port closes and opens again).
    return { status: 0, body: { status: 'unreachable' } }
  }
}

/**
 * Polls `probe` every 100 ms until it gives a value, at most `tries` times; a failure names the last answer and what
 * `reader` logged.
 */
async function eventually<T>(what: string, reader: SpawnedNode, probe: () => Promise<{ value?: T; last: unknown }>, tries = 600): Promise<T> {
  let last: unknown
  for (let i = 0; i < tries; i++) {
    const p = await probe()
    if (p.value !== undefined) return p.value
    last = p.last
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${what}: not after ${tries} looks; last ${JSON.stringify(last)}; the reader's log:\n${reader.log()}`)
}

const healthIs = (url: string, want: (h: { status: number; body: HealthBody }) => boolean) => async () => {
  const h = await health(url)
  return { value: want(h) ? h : undefined, last: h }
}

const alice = devAccounts()[3]!.address
const bob = devAccounts()[4]!.address

async function stopAll(...ps: (SpawnedNode | undefined)[]): Promise<void> {
  await Promise.all(ps.map((p) => p?.stop()))
}

describe('readers that never lie', () => {
  // With its port on two threads, the threads are replaced by ones over the new store (servingThreads.ts).
  it.each([1, 2])(
    'reopens a datadir removed and made again by a new node, and says stale, and why, meanwhile (--http.threads %i)',
    async (threads) => {
      const dir = tempDatadir('reader-replaced')
      const datadir = join(dir, 'dev')
      let node: SpawnedNode | undefined
      let reader: SpawnedNode | undefined
      let ws: WsClient | undefined
      try {
        node = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--workers', '1'])
        for (let i = 0; i < 5; i++) expect((await rpc(node.httpUrl, 'evm_mine')).error).toBeUndefined()
        reader = await spawnReader(['--no-kzg-preload', '--chain', 'dev', '--datadir', datadir, '--workers', '1', '--http.threads', String(threads)])
        // A state read below the head runs in the reader's worker lane: the lane has opened the store.
        expect((await rpc(reader.httpUrl, 'eth_getBalance', [alice, '0x1'])).error).toBeUndefined()
        await eventually(
          'the reader at head 5',
          reader,
          healthIs(reader.httpUrl, (h) => h.status === 200 && h.body.head === 5),
        )
        ws = await WsClient.open(reader.httpUrl.replace('http', 'ws'))
        const closed = once(ws.ws, 'close')

        await node.stop()
        rmSync(datadir, { recursive: true, force: true })
        const gone = await eventually(
          'stale with the datadir gone',
          reader,
          healthIs(reader.httpUrl, (h) => h.status === 503 && /datadir/.test(h.body.reason ?? '')),
        )
        expect(gone.body).toMatchObject({ status: 'stale', head: 5 })

        node = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--workers', '1'])
        for (let i = 0; i < 2; i++) expect((await rpc(node.httpUrl, 'evm_mine')).error).toBeUndefined()
        // The new chain, not the deleted one: head 2, and the blocks the new node made.
        const back = await eventually(
          'the reader on the new chain',
          reader,
          // The store's head can be read before the watcher has caught up (lag 1 for a moment): wait for both.
          healthIs(reader.httpUrl, (h) => h.status === 200 && h.body.head === 2 && h.body.lag === 0),
        )
        expect(back.body).toMatchObject({ status: 'ok', head: 2, lag: 0 })
        expect(await rpc(reader.httpUrl, 'eth_getBlockByNumber', ['latest', false])).toEqual(
          await rpc(node.httpUrl, 'eth_getBlockByNumber', ['latest', false]),
        )
        expect((await rpc(reader.httpUrl, 'eth_getBlockByNumber', ['0x5', false])).result).toBeNull()
        // The worker lane reads the new chain too.
        expect(await rpc(reader.httpUrl, 'eth_getBalance', [alice, '0x1'])).toEqual(await rpc(node.httpUrl, 'eth_getBalance', [alice, '0x1']))
        // A subscription on the removed chain is not kept alive on the new one: its connection was closed.
        await closed
        expect(reader.log()).toMatch(/the datadir was replaced/)
        expect(reader.log()).not.toMatch(/the node is back/)

        // Made again with another chain: never served, and stale saying so.
        await node.stop()
        rmSync(datadir, { recursive: true, force: true })
        node = await spawnNode(['--no-kzg-preload', '--chain', rpcCompatPath('genesis.json'), '--datadir', datadir, '--no-mining', '--workers', '1'])
        const other = await eventually(
          'stale over another chain',
          reader,
          healthIs(reader.httpUrl, (h) => h.status === 503 && /another chain/.test(h.body.reason ?? '')),
        )
        expect(other.body).toMatchObject({ status: 'stale', head: 2 })
        expect(other.body.reason).toMatch(/^the datadir was replaced by one that holds another chain: .*: serving the removed chain$/)
        expect((await rpc(reader.httpUrl, 'eth_chainId')).result).toBe('0x539')
      } finally {
        ws?.ws.close()
        await stopAll(reader, node)
        rmSync(dir, { recursive: true, force: true })
      }
    },
    300_000,
  )

  it('beside a frozen node (SIGSTOP): stale saying why, forwarded sends answered at once with -32000; back on SIGCONT', async () => {
    const datadir = tempDatadir('reader-frozen')
    let node: SpawnedNode | undefined
    let reader: SpawnedNode | undefined
    let alone: SpawnedNode | undefined
    try {
      // Dev mode with a block per transaction: an idle head never moves, so its age says nothing.
      node = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--workers', '1'])
      reader = await spawnReader(['--no-kzg-preload', '--chain', 'dev', '--datadir', datadir, '--workers', '1', '--rpc.upstream', node.httpUrl])
      // A reader with no upstream to ping: only the node's heartbeat tells it the node is frozen.
      alone = await spawnReader(['--no-kzg-preload', '--chain', 'dev', '--datadir', datadir, '--workers', '1'])
      for (const r of [reader, alone]) {
        await eventually(
          'the reader ok',
          r,
          healthIs(r.httpUrl, (h) => h.status === 200),
        )
      }
      const pid = node.process.pid!
      process.kill(pid, 'SIGSTOP')
      try {
        const frozen = await eventually(
          'stale beside the frozen node',
          reader,
          healthIs(reader.httpUrl, (h) => h.status === 503),
        )
        expect(frozen.body.status).toBe('stale')
        expect(frozen.body.reason).toMatch(/does not answer/)
        const lifeless = await eventually(
          'stale beside the frozen node, without an upstream',
          alone,
          healthIs(alone.httpUrl, (h) => h.status === 503),
        )
        expect(lifeless.body).toMatchObject({ status: 'stale', head: 0 })
        expect(lifeless.body.reason).toMatch(/^the node has shown no sign of life for \d+ s \(frozen or wedged\?\)/)
        const send = await rpc(reader.httpUrl, 'eth_sendTransaction', [{ from: alice, to: bob, value: '0x1' }])
        expect(send.error?.code).toBe(-32000)
        expect(send.error?.message).toMatch(/does not answer/)
        // Reads from the store still answer.
        expect((await rpc(reader.httpUrl, 'eth_blockNumber')).result).toBe('0x0')
      } finally {
        process.kill(pid, 'SIGCONT')
      }
      for (const r of [reader, alone]) {
        await eventually(
          'the reader ok again',
          r,
          healthIs(r.httpUrl, (h) => h.status === 200),
        )
      }
      const sent = await rpc<string>(reader.httpUrl, 'eth_sendTransaction', [{ from: alice, to: bob, value: '0x1' }])
      expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/)
      expect(reader.log()).toMatch(/the node does not answer/)
      expect(reader.log()).toMatch(/the node answers again/)
      expect(alone.log()).toMatch(/the node has shown no sign of life/)
      expect(alone.log()).toMatch(/the node answers again/)
    } finally {
      if (node?.process.pid !== undefined) {
        try {
          process.kill(node.process.pid, 'SIGCONT')
        } catch {
          // Already gone.
        }
      }
      await stopAll(reader, alone, node)
      rmSync(datadir, { recursive: true, force: true })
    }
  }, 300_000)
})

describe('a reader with no datadir to read', () => {
  it('waits a bounded time for a node to store a chain, then says what is wrong', async () => {
    const dir = tempDatadir('reader-nothing')
    const lines: string[] = []
    try {
      const spec = new ChainSpec(devGenesis())
      const datadir = join(dir, 'never-made')
      const opts = { datadir, http: { host: '127.0.0.1', port: 0, apis: [] }, log: collectingLogger(lines), storeWaitMs: 300 }
      await expect(startReader(spec, opts)).rejects.toThrow(
        `no chain in datadir ${datadir} after 0.3 s: no node has stored one there, and none holds it (is it the node's --datadir?)`,
      )
      expect(lines.join('\n')).toContain('waiting for a node to store a chain in the datadir')
      // An existing folder with no chain and no node is no different.
      await expect(startReader(spec, { ...opts, datadir: dir })).rejects.toThrow(`no chain in datadir ${dir}`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
