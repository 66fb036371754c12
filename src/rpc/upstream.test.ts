import { type Server as HttpServer, createServer as createHttpServer } from 'node:http'
import { type Server, type Socket, createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { RpcError } from './errors.js'
import { Upstream } from './upstream.js'

// Issue 31, item 4: a reader's forwarded sends to a frozen node hung 60 s. A forwarded call has a bounded wait and a
// clear -32000; once a ping has found the node silent, calls are refused at once instead of joining the wait.

const servers: (Server | HttpServer)[] = []
const sockets: Socket[] = []
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy()
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
})

/** A server that takes connections and reads requests but never answers (a SIGSTOPped node, as its clients see it). */
async function silentServer(): Promise<{ url: string; requests: () => number }> {
  let requests = 0
  const server = createServer((socket) => {
    sockets.push(socket)
    socket.on('data', (d: Buffer) => {
      requests += d.toString().split('POST ').length - 1
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests: () => requests }
}

async function answeringServer(): Promise<string> {
  const server = createHttpServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => {
      body += d.toString()
    })
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: number }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x2a' }))
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

async function refusal(p: Promise<unknown>): Promise<RpcError> {
  const e = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(e).toBeInstanceOf(RpcError)
  return e as RpcError
}

describe('a reader’s upstream', () => {
  it('bounds a forwarded call’s wait and answers -32000 saying so', async () => {
    const { url } = await silentServer()
    const upstream = new Upstream(url, { callTimeoutMs: 200, pingTimeoutMs: 200 })
    const e = await refusal(upstream.call('eth_sendRawTransaction', ['0x02']))
    expect(e.code).toBe(-32000)
    expect(e.message).toBe(`upstream ${url} did not answer eth_sendRawTransaction within 0.2 s: the node may still act on it`)
  })

  it('once a ping finds the node silent, refuses calls at once without sending them; answering again, forwards', async () => {
    const silent = await silentServer()
    const upstream = new Upstream(silent.url, { callTimeoutMs: 60_000, pingTimeoutMs: 200 })
    expect(upstream.problem).toBeUndefined()
    expect(await upstream.ping()).toBe(false)
    expect(upstream.problem).toBe(`the node does not answer at ${silent.url}: no reply within 0.2 s`)
    const before = silent.requests()
    const e = await refusal(upstream.call('eth_sendRawTransaction', ['0x02']))
    expect(e.code).toBe(-32000)
    expect(e.message).toBe(`upstream ${silent.url} does not answer (no reply within 0.2 s): eth_sendRawTransaction not forwarded`)
    expect(silent.requests()).toBe(before)

    const answering = new Upstream(await answeringServer(), { callTimeoutMs: 60_000, pingTimeoutMs: 60_000 })
    expect(await answering.ping()).toBe(true)
    expect(answering.problem).toBeUndefined()
    expect((await answering.call('eth_sendRawTransaction', ['0x02'])).chunks).toEqual(['"0x2a"'])
  })

  it('a port nobody listens on is a node that does not answer', async () => {
    const { url } = await silentServer()
    // Closed again: its port refuses.
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()))
    const upstream = new Upstream(url, { callTimeoutMs: 60_000, pingTimeoutMs: 60_000 })
    expect(await upstream.ping()).toBe(false)
    expect(upstream.problem).toMatch(new RegExp(`^the node does not answer at ${url}: .*ECONNREFUSED`))
  })
})
