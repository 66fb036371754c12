import { rmSync } from 'node:fs'
import { request } from 'node:http'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { MULTICALL3_ADDRESS } from '../chain/multicall3.js'
import { tempDatadir } from '../testing/paths.js'
import { devGenesisWith, localNodeOptions } from '../testing/testNode.js'
import { logEmitter } from '../testing/asm.js'
import { type RunningNode, startNode } from './node.js'
import { handleBody } from '../rpc/envelope.js'
import { allMethods } from '../rpc/methods/index.js'
import { WsClient } from '../testing/wsClient.js'

// --http.threads 2: two serving threads on one port (servingThreads.ts), each answering from its own LMDB snapshot,
// handing sends to the main thread. Each request goes on a connection of its own, so that the kernel spreads them.

let node: RunningNode
let url: string
const datadir = tempDatadir('threads')
const [alice, bob] = devAccounts()
const EMITTER = '0x00000000000000000000000000000000000e4a7e'
const TOPIC = `0x${'5e'.repeat(32)}` as const

beforeAll(async () => {
  node = await startNode(
    new ChainSpec(devGenesisWith({ [EMITTER]: logEmitter(1, TOPIC, 32) })),
    localNodeOptions(datadir, {
      httpThreads: 2,
      dev: {},
      devAccounts: devAccounts(),
      maxBodyBytes: 1 << 20,
      metrics: { host: '127.0.0.1', port: 0 },
    }),
  )
  url = `http://127.0.0.1:${node.httpPort}`
})

afterAll(async () => {
  await node?.close()
  rmSync(datadir, { recursive: true, force: true })
})

/** One call on a new connection (closed after the reply): its JSON reply. */
function call(method: string, params: unknown[] = []): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  // The reply whole (jsonrpc and id included): a forwarded call's is compared with the main thread's.
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method, params })
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', connection: 'close' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString()) as { result?: unknown }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

describe('serving threads on one port', () => {
  it('serves from both threads on the port the first was given', async () => {
    expect(node.servingThreads?.threads).toBe(2)
    // The kernel spreads new connections by their addresses: the chance that 200 all land on one thread is 2^-199.
    for (let i = 0; i < 200 && node.servingThreads!.taken().some((n) => n === 0); i++) {
      expect(await call('eth_blockNumber')).toMatchObject({ result: '0x0' })
    }
    expect(node.servingThreads!.taken().every((n) => n > 0)).toBe(true)
  })

  it('hands a send to the main thread and finds its receipt, balance and head on every thread', async () => {
    const sent = await call('eth_sendTransaction', [{ from: alice!.address, to: bob!.address, value: '0x1' }])
    expect(sent.error).toBeUndefined()
    const hash = sent.result as string
    // Mine-on-demand answers a send once its block is made: every thread answers from that head on.
    const before = node.servingThreads!.taken()
    for (let i = 0; i < 200; i++) {
      const receipt = await call('eth_getTransactionReceipt', [hash])
      expect(receipt.result).toMatchObject({ transactionHash: hash, blockNumber: '0x1', status: '0x1' })
      expect(await call('eth_blockNumber')).toMatchObject({ result: '0x1' })
      const now = node.servingThreads!.taken()
      if (now.every((n, slot) => n > before[slot]!)) break
    }
    expect(node.servingThreads!.taken().every((n, slot) => n > before[slot]!)).toBe(true)
    expect(await call('eth_getBalance', [bob!.address, 'latest'])).toMatchObject({ result: '0xd3c21bcecceda1000001' })
  })

  it('runs eth_call on a serving thread', async () => {
    // Multicall3's getBlockNumber().
    expect(await call('eth_call', [{ to: MULTICALL3_ADDRESS, data: '0x42cbb15c' }, 'latest'])).toMatchObject({ result: `0x${'0'.repeat(63)}1` })
  })

  it("answers a forwarded call's error as the node does", async () => {
    const refused = await call('eth_sendRawTransaction', ['0x02'])
    // The main thread's own answer to the same call, through its envelope and table.
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_sendRawTransaction', params: ['0x02'] }))
    const direct = await handleBody(body, allMethods(), { maxBatch: 10, namespaces: new Set(['eth']) }, node.context)
    expect(refused.error).toBeDefined()
    expect(refused).toEqual(JSON.parse(direct!.toString()))
  })

  it('keeps filters on the main thread, whichever thread a poll lands on', async () => {
    const made = await call('eth_newBlockFilter')
    const id = made.result as string
    expect(typeof id).toBe('string')
    expect(await call('eth_sendTransaction', [{ from: alice!.address, to: bob!.address, value: '0x2' }])).not.toHaveProperty('error')
    const changes = await call('eth_getFilterChanges', [id])
    expect(changes.result).toHaveLength(1)
    expect(await call('eth_getFilterChanges', [id])).toMatchObject({ result: [] })
  })

  it('pushes newHeads to a WebSocket subscriber on a serving thread', async () => {
    const ws = await WsClient.open(`ws://127.0.0.1:${node.httpPort}`)
    try {
      const sub = await ws.call<string>('eth_subscribe', ['newHeads'])
      expect(typeof sub.result).toBe('string')
      const head = (await call('eth_blockNumber')).result as string
      expect(await call('eth_sendTransaction', [{ from: alice!.address, to: bob!.address, value: '0x3' }])).not.toHaveProperty('error')
      const pushed = await ws.next((m) => m.method === 'eth_subscription')
      expect((pushed.params!.result as { number: string }).number).toBe(`0x${(BigInt(head) + 1n).toString(16)}`)
    } finally {
      ws.ws.close()
    }
  })

  it('pushes newPendingTransactions to a subscriber on a serving thread', async () => {
    const ws = await WsClient.open(`ws://127.0.0.1:${node.httpPort}`)
    try {
      expect(typeof (await ws.call<string>('eth_subscribe', ['newPendingTransactions'])).result).toBe('string')
      const sent = await call('eth_sendTransaction', [{ from: alice!.address, to: bob!.address, value: '0x4' }])
      const pushed = await ws.next((m) => m.method === 'eth_subscription')
      expect(pushed.params!.result).toBe(sent.result)
    } finally {
      ws.ws.close()
    }
  })

  it('follows a reorg on every thread at once (blocks, kept receipts), and pushes the removed logs', async () => {
    const ws = await WsClient.open(`ws://127.0.0.1:${node.httpPort}`)
    try {
      expect(typeof (await ws.call<string>('eth_subscribe', ['logs', { address: EMITTER }])).result).toBe('string')
      const snapshot = (await call('evm_snapshot')).result as string
      const sent = await call('eth_sendTransaction', [{ from: alice!.address, to: EMITTER, gas: '0x30000' }])
      expect(sent).not.toHaveProperty('error')
      const logged = await ws.next((m) => m.method === 'eth_subscription')
      expect(logged.params!.result).toMatchObject({ address: EMITTER, removed: false })
      const undone = logged.params!.result as { blockNumber: string; blockHash: string }
      // The receipt read on both threads, which keep it (store/txReplies.ts).
      for (let i = 0; i < 20; i++)
        expect(await call('eth_getTransactionReceipt', [sent.result])).toMatchObject({ result: { blockHash: undone.blockHash } })
      expect(await call('evm_revert', [snapshot])).toMatchObject({ result: true })
      const removed = await ws.next((m) => m.method === 'eth_subscription')
      expect(removed.params!.result).toMatchObject({ address: EMITTER, removed: true, blockHash: undone.blockHash })
      // No thread answers from the undone block once evm_revert has answered (the dev driver mines the transaction
      // again, at the same height, in a block of its own random prevRandao): the next 50 connections, spread by the
      // kernel over both threads, all read the block gone or replaced.
      const taken = node.servingThreads!.taken()
      for (let i = 0; i < 50; i++) {
        const block = (await call('eth_getBlockByNumber', [undone.blockNumber, false])).result as { hash: string } | null
        expect(block?.hash).not.toBe(undone.blockHash)
        const receipt = (await call('eth_getTransactionReceipt', [sent.result])).result as { blockHash: string } | null
        expect(receipt?.blockHash).not.toBe(undone.blockHash)
      }
      expect(node.servingThreads!.taken().every((n, slot) => n > taken[slot]!)).toBe(true)
    } finally {
      ws.ws.close()
    }
  })

  it('counts the calls of every thread once in /metrics, and the requests each thread took', async () => {
    const scrape = async () => (await fetch(`http://127.0.0.1:${node.metricsPort}/metrics`)).text()
    const count = (text: string) => Number(/sponge_rpc_requests_total\{method="eth_chainId",port="http"\} (\d+)/.exec(text)?.[1] ?? 0)
    const before = count(await scrape())
    const taken = node.servingThreads!.taken()
    for (let i = 0; i < 40; i++) expect(await call('eth_chainId')).toMatchObject({ result: '0x539' })
    const text = await scrape()
    expect(count(text)).toBe(before + 40)
    // The 40 connections went to both threads (2^-39 that they did not): each thread's own count is there too.
    expect(node.servingThreads!.taken().every((n, slot) => n > taken[slot]!)).toBe(true)
    for (const slot of [0, 1]) expect(text).toMatch(new RegExp(`sponge_http_thread_requests\\{thread="${slot}"\\} [1-9]`))
    // One HELP line a metric: the threads' series are summed into the node's, not listed beside them.
    expect(text.match(/^# HELP sponge_rpc_requests_total /gm)).toHaveLength(1)
    expect(text).toMatch(/^sponge_chain_block_number\{label="head"\} \d+$/m)
    // Where the threads' calls ran (the eth_call above, on a thread), summed.
    expect(text).toMatch(/^sponge_thread_calls\{where="thread"\} [1-9]/m)
  })

  it("reports the node's lifecycle and head in every thread's /health", async () => {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${url}/health`, { headers: { connection: 'close' } })
      expect(res.status).toBe(200)
      const body = (await res.json()) as { status: string; head: number }
      expect(body).toMatchObject({ status: 'ok' })
      expect(body.head).toBe(Number((await call('eth_blockNumber')).result))
    }
  })

  it("says stale in a thread's /health while the main thread stands still, and ok once it moves again", async () => {
    // A worker asks /health while this thread (the node's main thread) is held; it wakes this thread once a serving
    // thread says the main thread has not moved (after READER_DEFAULTS.lifelessMs of standing still), or gives up.
    const seen = new Int32Array(new SharedArrayBuffer(8))
    const watcher = new Worker(
      `const { workerData } = require('node:worker_threads')
      const seen = new Int32Array(workerData.seen)
      ;(async () => {
        for (let i = 0; i < 150; i++) {
          const res = await fetch(workerData.url + '/health', { headers: { connection: 'close' } })
          const body = await res.json()
          if (res.status === 503 && body.status === 'stale' && /main thread has not moved/.test(body.reason)) Atomics.store(seen, 1, 1)
          if (Atomics.load(seen, 1) === 1) break
          await new Promise((r) => setTimeout(r, 100))
        }
        Atomics.store(seen, 0, 1)
        Atomics.notify(seen, 0)
      })()`,
      { eval: true, workerData: { url, seen: seen.buffer } },
    )
    try {
      Atomics.wait(seen, 0, 0, 60_000)
      expect(Atomics.load(seen, 1)).toBe(1)
    } finally {
      await watcher.terminate()
    }
    await vi.waitFor(async () => expect((await fetch(`${url}/health`, { headers: { connection: 'close' } })).status).toBe(200), {
      timeout: 10_000,
      interval: 50,
    })
  })
})
