import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { type SpawnedNode, spawnNode, spawnReader } from '../testing/spawnNode.js'
import { EMITTER_INIT, WsClient } from '../testing/wsClient.js'

// `sponge rpc` over a running dev node's datadir, each in its own process (LMDB allows one environment per path in a
// process: a reader in the node's process would share the node's writable one and prove nothing).

interface Reply<T = unknown> {
  result?: T
  error?: { code: number; message: string; data?: unknown }
}

async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<Reply<T>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as Reply<T>
}

async function health(url: string): Promise<{ status: number; body: { status: string; head?: number; lag?: number } }> {
  const res = await fetch(`${url}/health`)
  return { status: res.status, body: (await res.json()) as { status: string; head?: number; lag?: number } }
}

const TOPIC = `0x${'cd'.repeat(32)}`
const alice = devAccounts()[3]!.address
const bob = devAccounts()[4]!.address
const APIS = ['--http.api', 'eth,net,web3,debug']

let dir: string
let datadir: string
let node: SpawnedNode
/** Started before the node, without an upstream. */
let early: SpawnedNode
/** Started after it, forwarding to it. */
let reader: SpawnedNode
/** The same, its port served by two threads (--http.threads 2: servingThreads.ts). */
let threaded: SpawnedNode

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sponge-reader-'))
  datadir = join(dir, 'dev')
  let waiting: () => void = () => {}
  const saidWaiting = new Promise<void>((resolve) => (waiting = resolve))
  const earlyStarting = spawnReader(
    ['--no-kzg-preload', '--chain', 'dev', '--datadir', datadir, '--workers', '1', ...APIS],
    undefined,
    undefined,
    (out) => {
      if (out.includes('waiting for a node to store a chain in the datadir')) waiting()
    },
  )
  // Only once it has looked and found nothing.
  await Promise.race([saidWaiting, earlyStarting])
  node = await spawnNode([
    '--no-kzg-preload',
    '--no-warmup',
    '--chain',
    'dev',
    '--datadir',
    datadir,
    '--dev.period',
    '3600',
    '--workers',
    '1',
    ...APIS,
  ])
  early = await earlyStarting
  reader = await spawnReader(['--no-kzg-preload', '--chain', 'dev', '--datadir', datadir, '--workers', '1', '--rpc.upstream', node.httpUrl, ...APIS])
  threaded = await spawnReader([
    ...['--no-kzg-preload', '--chain', 'dev', '--datadir', datadir, '--workers', '1', '--rpc.upstream', node.httpUrl, '--http.threads', '2'],
    ...APIS,
  ])
}, 180_000)

afterAll(async () => {
  await Promise.all([reader?.stop(), early?.stop(), threaded?.stop(), node?.stop()])
  rmSync(dir, { recursive: true, force: true })
})

describe('sponge rpc', () => {
  it('started before the node, waits for its store and says so', async () => {
    expect(early.log()).toContain('waiting for a node to store a chain in the datadir')
    expect((await rpc(early.httpUrl, 'eth_chainId')).result).toBe('0x539')
  })

  it('forwards sends and block making to the upstream, sees the blocks, and serves the node’s replies', async () => {
    const deploy = (await rpc<string>(reader.httpUrl, 'eth_sendTransaction', [{ from: alice, data: EMITTER_INIT }])).result!
    expect(deploy).toMatch(/^0x[0-9a-f]{64}$/)
    // Pooled on the node: the reader finds it there, and counts it in the pending nonce.
    expect((await rpc<{ hash: string; blockHash: null }>(reader.httpUrl, 'eth_getTransactionByHash', [deploy])).result).toMatchObject({
      hash: deploy,
      blockHash: null,
    })
    // Its raw bytes too, from the reader, the threaded reader and the node's own serving threads (all answered null:
    // a serving thread has no pool, and debug_getRawTransaction was not handed on).
    for (const url of [reader.httpUrl, threaded.httpUrl, node.httpUrl]) {
      expect((await rpc<string>(url, 'debug_getRawTransaction', [deploy])).result, url).toMatch(/^0x02[0-9a-f]+$/)
    }
    expect((await rpc(reader.httpUrl, 'eth_getTransactionCount', [alice, 'pending'])).result).toBe('0x1')
    expect((await rpc(reader.httpUrl, 'eth_getTransactionCount', [alice, 'latest'])).result).toBe('0x0')
    expect((await rpc(reader.httpUrl, 'txpool_status')).result).toEqual({ pending: '0x1', queued: '0x0' })
    await rpc(reader.httpUrl, 'evm_mine')
    const receipt = (await rpc<{ contractAddress: string; blockHash: string }>(reader.httpUrl, 'eth_getTransactionReceipt', [deploy])).result!
    const emitter = receipt.contractAddress
    // Through the threaded reader: its thread hands the send on to its main thread, which forwards it to the node.
    const tx = (await rpc<string>(threaded.httpUrl, 'eth_sendTransaction', [{ from: alice, to: emitter, data: TOPIC }])).result!
    await rpc(threaded.httpUrl, 'evm_mine')

    // The same replies from the node and from the three readers.
    const calls: [string, unknown[]][] = [
      ['eth_blockNumber', []],
      ['eth_getBlockByNumber', ['latest', true]],
      ['eth_getBlockByHash', [receipt.blockHash, false]],
      ['eth_getTransactionReceipt', [tx]],
      ['eth_getTransactionByBlockNumberAndIndex', ['latest', '0x0']],
      ['eth_getBlockReceipts', ['latest']],
      ['eth_getBalance', [alice, 'latest']],
      ['eth_getBalance', [alice, '0x1']],
      ['eth_getCode', [emitter, 'latest']],
      ['eth_call', [{ from: alice, to: emitter, data: TOPIC }, 'latest']],
      ['eth_estimateGas', [{ from: alice, to: bob, value: '0x1' }]],
      ['eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest', address: emitter }]],
      ['eth_feeHistory', ['0x2', 'latest', [50]]],
      ['eth_config', []],
      ['eth_getProof', [alice, [], 'latest']],
      ['debug_traceTransaction', [tx, { tracer: 'callTracer' }]],
      ['eth_syncing', []],
    ]
    for (const [method, params] of calls) {
      const want = await rpc(node.httpUrl, method, params)
      expect(want.error, method).toBeUndefined()
      expect(await rpc(reader.httpUrl, method, params), method).toEqual(want)
      expect(await rpc(early.httpUrl, method, params), method).toEqual(want)
      expect(await rpc(threaded.httpUrl, method, params), method).toEqual(want)
    }
    const h = await health(reader.httpUrl)
    expect(h.status).toBe(200)
    expect(h.body).toMatchObject({ status: 'ok', head: 2, lag: 0 })
    expect(await health(threaded.httpUrl)).toMatchObject({ status: 200, body: { status: 'ok', head: 2 } })
  })

  it('pushes newHeads and logs, and a reorg’s removed logs, as the node does', async () => {
    const onReader = await WsClient.open(reader.httpUrl.replace('http', 'ws'))
    const onNode = await WsClient.open(node.httpUrl.replace('http', 'ws'))
    const onThread = await WsClient.open(threaded.httpUrl.replace('http', 'ws'))
    try {
      const deploy = (await rpc<string>(node.httpUrl, 'eth_sendTransaction', [{ from: bob, data: EMITTER_INIT }])).result!
      await rpc(node.httpUrl, 'evm_mine')
      const emitter = (await rpc<{ contractAddress: string }>(node.httpUrl, 'eth_getTransactionReceipt', [deploy])).result!.contractAddress
      // Subscribed once the reader has taken in that block (eth_syncing false), both see the same blocks from then on.
      for (const url of [reader.httpUrl, threaded.httpUrl])
        for (let i = 0; i < 200 && (await rpc(url, 'eth_syncing')).result !== false; i++) await new Promise((r) => setTimeout(r, 10))
      const subscribe = async (c: WsClient) => ({
        heads: (await c.call<string>('eth_subscribe', ['newHeads'])).result!,
        logs: (await c.call<string>('eth_subscribe', ['logs', { address: emitter }])).result!,
      })
      const [r, n, t] = [await subscribe(onReader), await subscribe(onNode), await subscribe(onThread)]
      const snap = (await rpc<string>(reader.httpUrl, 'evm_snapshot')).result!
      const tx = (await rpc<string>(reader.httpUrl, 'eth_sendTransaction', [{ from: bob, to: emitter, data: TOPIC }])).result!
      await rpc(reader.httpUrl, 'evm_mine')
      const sameAs = async (sub: keyof typeof r) => {
        const fromNode = (await onNode.next((m) => m.params?.subscription === n[sub])).params!.result
        const fromReader = (await onReader.next((m) => m.params?.subscription === r[sub])).params!.result
        expect(fromReader, sub).toEqual(fromNode)
        expect((await onThread.next((m) => m.params?.subscription === t[sub])).params!.result, `${sub} on a thread`).toEqual(fromNode)
        return fromReader as Record<string, unknown>
      }
      expect(await sameAs('heads')).toMatchObject({ number: '0x4' })
      expect(await sameAs('logs')).toMatchObject({ transactionHash: tx, removed: false })
      // The block goes away (evm_revert, forwarded): its log comes again with removed: true.
      await rpc(reader.httpUrl, 'evm_revert', [snap])
      expect(await sameAs('logs')).toMatchObject({ transactionHash: tx, removed: true })
      // A new block at that height on the other branch: its head and log come as on the node.
      await rpc(reader.httpUrl, 'eth_sendTransaction', [{ from: bob, to: emitter, data: TOPIC, value: '0x1' }])
      await rpc(reader.httpUrl, 'evm_mine')
      expect(await sameAs('heads')).toMatchObject({ number: '0x4' })
      expect(await sameAs('logs')).toMatchObject({ removed: false })
    } finally {
      onReader.ws.close()
      onNode.ws.close()
      onThread.ws.close()
    }
  })

  it('serves no Engine API or testing_, and without an upstream refuses sends with a clear error', async () => {
    for (const method of ['engine_getPayloadV1', 'engine_forkchoiceUpdatedV3', 'testing_buildBlockV1']) {
      expect((await rpc(reader.httpUrl, method, [])).error?.code, method).toBe(-32601)
    }
    const refused = await rpc(early.httpUrl, 'eth_sendRawTransaction', ['0x02'])
    expect(refused.error?.code).toBe(-32000)
    expect(refused.error?.message).toContain('--rpc.upstream')
    // The node's own refusal comes back as the node answered it.
    const bad = await rpc(reader.httpUrl, 'eth_sendRawTransaction', ['0x02'])
    expect(bad).toEqual(await rpc(node.httpUrl, 'eth_sendRawTransaction', ['0x02']))
  })

  it('outlives the node: serves what is stored, says stale, and writes nothing', async () => {
    const head = (await rpc<string>(node.httpUrl, 'eth_blockNumber')).result
    await node.stop()
    const file = join(datadir, 'chain.mdb')
    const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex')
    const before = { digest: digest(), mtime: statSync(file).mtimeMs, size: statSync(file).size }
    // Within a few of its node checks (one a second), a bounded wait.
    let h = await health(reader.httpUrl)
    for (let i = 0; i < 100 && h.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 100))
      h = await health(reader.httpUrl)
    }
    expect(h).toMatchObject({ status: 503, body: { status: 'stale' } })
    // The threaded reader's threads say so too (its main thread tells them after each check).
    let t = await health(threaded.httpUrl)
    for (let i = 0; i < 100 && t.status === 200; i++) {
      await new Promise((r) => setTimeout(r, 100))
      t = await health(threaded.httpUrl)
    }
    expect(t).toMatchObject({ status: 503, body: { status: 'stale' } })
    // Under load, every read still answers from the store.
    const load = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        i % 2 === 0
          ? rpc(reader.httpUrl, 'eth_getBlockByNumber', ['latest', true])
          : rpc(reader.httpUrl, 'eth_call', [{ from: alice, to: bob }, 'latest']),
      ),
    )
    expect(load.every((r) => r.error === undefined)).toBe(true)
    expect((await rpc(reader.httpUrl, 'eth_blockNumber')).result).toBe(head)
    await reader.stop()
    await early.stop()
    await threaded.stop()
    expect({ digest: digest(), mtime: statSync(file).mtimeMs, size: statSync(file).size }).toEqual(before)
  })
})
