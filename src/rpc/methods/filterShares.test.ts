import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { MAX_FILTERS_PER_CLIENT } from '../../logs/filters.js'
import { type TestNode, startTestNode } from '../../testing/testNode.js'

// The polling filters' slots shared out among clients: a client is a remote address (as the lane's admission counts
// them), over HTTP and WebSocket alike, each with its share; a WebSocket connection's filters go when it closes.
// Whoever fills a share, the others still install. Issue 31 item 8: ten WebSocket connections of 1,000 filters each
// took all 10,000 slots, and every HTTP client was refused until they expired.

interface Reply {
  id: number
  result?: string
  error?: { code: number; message: string }
}

/** A WebSocket client that sends one batch at a time and waits for its reply. */
class WsClient {
  private constructor(readonly ws: WebSocket) {}

  /** `from`: the local address to connect from (127.0.0.0/8 all reaches the node), i.e. the client it counts as. */
  static async open(url: string, from = '127.0.0.1'): Promise<WsClient> {
    const ws = new WebSocket(url, { localAddress: from })
    await once(ws, 'open')
    return new WsClient(ws)
  }

  async batch(method: string, count: number): Promise<Reply[]> {
    const replied = once(this.ws, 'message')
    this.ws.send(JSON.stringify(Array.from({ length: count }, (_, id) => ({ jsonrpc: '2.0', id, method, params: [] }))))
    const [data] = (await replied) as [Buffer]
    return (JSON.parse(String(data)) as Reply[]).sort((a, b) => a.id - b.id)
  }

  async close(): Promise<void> {
    const closed = once(this.ws, 'close')
    this.ws.close()
    await closed
  }
}

let n: TestNode
let url: string
beforeAll(async () => {
  n = await startTestNode()
  url = `ws://127.0.0.1:${n.node.httpPort}`
})
afterAll(async () => {
  await n.close()
})

/** Installs block filters in batches of 100 until `count` are asked for; the replies in order. */
async function installMany(send: (count: number) => Promise<Reply[]>, count: number): Promise<Reply[]> {
  const out: Reply[] = []
  for (let left = count; left > 0; left -= 100) out.push(...(await send(Math.min(100, left))))
  return out
}

const httpBatch = async (count: number): Promise<Reply[]> =>
  (await n.batch<string>(Array.from({ length: count }, () => ['eth_newBlockFilter', []] as [string, unknown[]]))).replies as Reply[]

/** Waits (bounded) until filter `id` is gone, as its connection's close takes it. */
async function gone(id: string): Promise<void> {
  await vi.waitFor(async () => expect((await n.http('eth_getFilterChanges', [id])).error).toEqual({ code: -32000, message: 'filter not found' }), {
    timeout: 10_000,
    interval: 20,
  })
}

describe('filter slots per client', () => {
  it('refuses a WebSocket connection past its address’s share; another address and HTTP clients still install', async () => {
    const greedy = await WsClient.open(url, '127.0.0.6')
    const installed = await installMany((c) => greedy.batch('eth_newBlockFilter', c), MAX_FILTERS_PER_CLIENT)
    expect(installed.filter((r) => r.result !== undefined)).toHaveLength(MAX_FILTERS_PER_CLIENT)
    const [refused] = await greedy.batch('eth_newBlockFilter', 1)
    expect(refused!.error).toEqual({ code: -32005, message: `exceed max filters per client (${MAX_FILTERS_PER_CLIENT})` })
    const other = await WsClient.open(url)
    expect((await other.batch('eth_newBlockFilter', 1))[0]!.result).toMatch(/^0x[0-9a-f]{32}$/)
    expect((await n.http('eth_newBlockFilter')).result).toMatch(/^0x[0-9a-f]{32}$/)
    // The greedy connection's filters are polled like any (from HTTP too) while it is open, and go when it closes.
    const id = installed[0]!.result!
    expect((await n.http('eth_getFilterChanges', [id])).result).toEqual([])
    await greedy.close()
    // With serving threads the connection's close reaches the main thread, which holds the filters, a moment later.
    await gone(id)
    await other.close()
  })

  it('counts ten WebSocket connections from one address as one client: they hold one share, the rest stay free', async () => {
    const connections = await Promise.all(Array.from({ length: 10 }, () => WsClient.open(url, '127.0.0.4')))
    let held = 0
    const someOf: string[] = []
    for (const ws of connections) {
      const replies = await installMany((c) => ws.batch('eth_newBlockFilter', c), MAX_FILTERS_PER_CLIENT)
      const ids = replies.flatMap((r) => (r.result === undefined ? [] : [r.result]))
      held += ids.length
      if (ids[0] !== undefined) someOf.push(ids[0])
    }
    expect(held).toBe(MAX_FILTERS_PER_CLIENT)
    // Another address, over HTTP and over WebSocket, still installs.
    expect((await n.batchFrom<string>('127.0.0.5', [['eth_newBlockFilter', []]])).replies[0]!.result).toMatch(/^0x[0-9a-f]{32}$/)
    const elsewhere = await WsClient.open(url, '127.0.0.5')
    expect((await elsewhere.batch('eth_newBlockFilter', 1))[0]!.result).toMatch(/^0x[0-9a-f]{32}$/)
    await elsewhere.close()
    // Closed, the connections give their address's share back.
    for (const ws of connections) await ws.close()
    for (const id of someOf) await gone(id)
    const again = await WsClient.open(url, '127.0.0.4')
    const replies = await installMany((c) => again.batch('eth_newBlockFilter', c), MAX_FILTERS_PER_CLIENT)
    expect(replies.filter((r) => r.result !== undefined)).toHaveLength(MAX_FILTERS_PER_CLIENT)
    await again.close()
  })

  it('bounds an HTTP client (a remote address) at its share; another address and a WebSocket connection still install', async () => {
    // One filter from 127.0.0.1 is installed by the test above; this client connects from 127.0.0.3.
    const from = (count: number) =>
      n.batchFrom<string>(
        '127.0.0.3',
        Array.from({ length: count }, () => ['eth_newBlockFilter', []] as [string, unknown[]]),
      )
    const installed = await installMany(async (c) => (await from(c)).replies as Reply[], MAX_FILTERS_PER_CLIENT)
    expect(installed.filter((r) => r.result !== undefined)).toHaveLength(MAX_FILTERS_PER_CLIENT)
    expect((await from(1)).replies[0]!.error).toEqual({ code: -32005, message: `exceed max filters per client (${MAX_FILTERS_PER_CLIENT})` })
    expect((await httpBatch(1))[0]!.result).toMatch(/^0x[0-9a-f]{32}$/)
    const ws = await WsClient.open(url)
    expect((await ws.batch('eth_newBlockFilter', 1))[0]!.result).toMatch(/^0x[0-9a-f]{32}$/)
    await ws.close()
  })
})
