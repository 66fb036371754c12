import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { devAccounts } from '../chain/dev.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'
import { EMITTER_INIT, type Message, WsClient as Client } from '../testing/wsClient.js'

// WebSocket on the HTTP port: every public method, and eth_subscribe's notifications (newHeads, logs with
// removed: true after a reorg, newPendingTransactions).

const TOPIC = `0x${'ab'.repeat(32)}`
const alice = devAccounts()[7]!.address

let dev: TestNode
let url: string
beforeAll(async () => {
  dev = await startTestNode({ dev: { period: 3600 }, devAccounts: devAccounts() })
  url = `ws://127.0.0.1:${dev.node.httpPort}`
})
afterAll(async () => {
  await dev.close()
})

describe('WebSocket', () => {
  it('serves the public methods, batches included', async () => {
    const c = await Client.open(url)
    expect((await c.call('eth_chainId')).result).toBe('0x539')
    c.ws.send(
      JSON.stringify([
        { jsonrpc: '2.0', id: 100, method: 'eth_blockNumber' },
        { jsonrpc: '2.0', id: 101, method: 'nope' },
      ]),
    )
    const batch = (await c.next((m) => Array.isArray(m))) as unknown as Message[]
    expect(batch.map((m) => m.id)).toEqual([100, 101])
    expect(batch[1]!.error?.code).toBe(-32601)
    c.ws.close()
  })

  it('pushes new heads, logs (removed after a reorg) and pending transactions; unsubscribing stops them', async () => {
    const c = await Client.open(url)
    const sent = await dev.http<string>('eth_sendTransaction', [{ from: alice, data: EMITTER_INIT }])
    expect(sent.error).toBeUndefined()
    expect((await dev.http('evm_mine')).error).toBeUndefined()
    const receipt = await dev.http<{ contractAddress: string }>('eth_getTransactionReceipt', [sent.result])
    expect(receipt.error).toBeUndefined()
    const emitter = receipt.result!.contractAddress

    const heads = (await c.call<string>('eth_subscribe', ['newHeads'])).result!
    const logs = (await c.call<string>('eth_subscribe', ['logs', { address: emitter, topics: [TOPIC] }])).result!
    const pending = (await c.call<string>('eth_subscribe', ['newPendingTransactions'])).result!

    const snap = (await dev.http<string>('evm_snapshot')).result!
    const sentTx = await dev.http<string>('eth_sendTransaction', [{ from: alice, to: emitter, data: TOPIC }])
    expect(sentTx.error).toBeUndefined()
    const tx = sentTx.result!
    expect((await c.next((m) => m.params?.subscription === pending)).params!.result).toBe(tx)
    await dev.http('evm_mine')
    const head = (await dev.http<{ hash: string; number: string }>('eth_getBlockByNumber', ['latest', false])).result!
    const pushedHead = (await c.next((m) => m.params?.subscription === heads)).params!.result as Record<string, unknown>
    expect(pushedHead).toMatchObject({ hash: head.hash, number: head.number })
    expect(pushedHead.transactions).toBeUndefined()
    const log = (await c.next((m) => m.params?.subscription === logs)).params!.result as Record<string, unknown>
    expect(log).toMatchObject({ address: emitter, transactionHash: tx, blockHash: head.hash, removed: false })

    // The block goes away: its log comes again with removed: true.
    await dev.http('evm_revert', [snap])
    const removed = (await c.next((m) => m.params?.subscription === logs)).params!.result as Record<string, unknown>
    expect(removed).toMatchObject({ transactionHash: tx, blockHash: head.hash, removed: true })

    expect((await c.call('eth_unsubscribe', [heads])).result).toBe(true)
    expect((await c.call('eth_unsubscribe', [heads])).result).toBe(false)
    await dev.http('evm_mine')
    // A request answered after the mine: any head notification would have been queued before it.
    await c.call('eth_chainId')
    expect(c.notifications(heads)).toEqual([])
    c.ws.close()
  })

  it('disconnects a consumer that stops reading, rather than buffering for it without bound', async () => {
    const c = await Client.open(url)
    for (let i = 0; i < 256; i++) await c.call('eth_subscribe', ['newHeads'])
    expect((await c.call('eth_subscribe', ['newHeads'])).error?.code).toBe(-32005)
    const closed = once(c.ws, 'close')
    const socket = (c.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket
    socket.pause()
    // Each block is 256 notifications of about a kilobyte; past 4 MiB queued (once the kernel's buffers are full)
    // the node drops the connection. 200 blocks is 50 MiB: if it buffered instead, the close below never comes.
    for (let i = 0; i < 200; i++) await dev.http('evm_mine')
    socket.resume()
    await closed
    // The node serves others as before.
    expect((await dev.http('eth_chainId')).result).toBe('0x539')
  })

  it('closes open connections with 1001 when the node shuts down', async () => {
    const own = await startTestNode()
    const c = await Client.open(`ws://127.0.0.1:${own.node.httpPort}`)
    await c.call('eth_subscribe', ['newHeads'])
    const closed = once(c.ws, 'close') as Promise<[number, Buffer]>
    await own.close()
    expect((await closed)[0]).toBe(1001)
  })

  it('closes with 1009 on a message over the size limit (RFC 6455), and keeps serving others', async () => {
    // The test node takes bodies and messages of up to 10 MiB.
    const c = await Client.open(url)
    const closed = once(c.ws, 'close') as Promise<[number, Buffer]>
    c.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: ['x'.repeat(10 * 1024 * 1024)] }))
    const [code, reason] = await closed
    expect(code).toBe(1009)
    expect(String(reason)).toMatch(/message too big/)
    const other = await Client.open(url)
    expect((await other.call('eth_chainId', [])).result).toBe('0x539')
    other.ws.close()
  })

  it('answers eth_subscribe over HTTP with geth’s "notifications not supported"', async () => {
    expect((await dev.http('eth_subscribe', ['newHeads'])).error?.code).toBe(-32601)
  })

  it('refuses an upgrade from a page whose origin is not allowed, and a subscription kind it does not know', async () => {
    const refused = new WebSocket(url, { headers: { origin: 'https://evil.example' } })
    const [, res] = (await once(refused, 'unexpected-response')) as [unknown, { statusCode: number }]
    expect(res.statusCode).toBe(403)
    const c = await Client.open(url)
    expect((await c.call('eth_subscribe', ['syncingForever'])).error?.code).toBe(-32602)
    c.ws.close()
  })
})
