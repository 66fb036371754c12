import { rmSync } from 'node:fs'
import { type Socket, connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { type RunningNode, startNode } from './node.js'
import { localNodeOptions } from '../testing/testNode.js'
import { tempDatadir } from '../testing/paths.js'

// HTTP/1.0 clients (nginx's default upstream protocol, ApacheBench, HAProxy's bare `option httpchk`) and HTTP/1.1
// requests without Host, answered as geth answers them (issue 32 item 3): HTTP/1.0 served, the connection closed after
// the reply unless the client asked for keep-alive; HTTP/1.1 without Host refused with 400, the node serving on.

const BODY = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'
const post = (version: string, headers: string) =>
  `POST / HTTP/${version}\r\n${headers}Content-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`

interface Reply {
  status: number
  headers: Map<string, string>
  body: string
}

/** One connection: replies parsed as they arrive (bodies by Content-Length), and whether the server ended it. */
class RawConnection {
  private readonly socket: Socket
  private buffered = ''
  private readonly replies: Reply[] = []
  private ended = false
  private waiter: (() => void) | undefined

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1')
    this.socket.setEncoding('latin1')
    this.socket.on('data', (d: string) => {
      this.buffered += d
      this.parse()
      this.waiter?.()
    })
    this.socket.on('end', () => this.finish())
    this.socket.on('close', () => this.finish())
    this.socket.on('error', () => this.finish())
  }

  send(text: string): void {
    this.socket.write(text)
  }

  /** The next reply, or undefined if the server ended the connection first. */
  async reply(): Promise<Reply | undefined> {
    while (this.replies.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.waiter = resolve))
    return this.replies.shift()
  }

  /** Whether the server ends the connection (true) or sends more bytes first (false). */
  async endedByServer(): Promise<boolean> {
    while (!this.ended && this.buffered === '' && this.replies.length === 0) await new Promise<void>((resolve) => (this.waiter = resolve))
    return this.ended && this.buffered === '' && this.replies.length === 0
  }

  destroy(): void {
    this.socket.destroy()
  }

  private finish(): void {
    this.ended = true
    this.waiter?.()
  }

  private parse(): void {
    for (;;) {
      const headEnd = this.buffered.indexOf('\r\n\r\n')
      if (headEnd < 0) return
      const [statusLine = '', ...lines] = this.buffered.slice(0, headEnd).split('\r\n')
      const headers = new Map<string, string>()
      for (const line of lines) {
        const colon = line.indexOf(':')
        const name = line.slice(0, colon).trim().toLowerCase()
        const value = line.slice(colon + 1).trim()
        headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value)
      }
      const length = Number(headers.get('content-length') ?? 0)
      if (this.buffered.length < headEnd + 4 + length) return
      const status = Number(statusLine.split(' ')[1])
      this.replies.push({ status, headers, body: this.buffered.slice(headEnd + 4, headEnd + 4 + length) })
      this.buffered = this.buffered.slice(headEnd + 4 + length)
    }
  }
}

describe.each([1, 2])('any HTTP client, %i serving thread(s)', (httpThreads) => {
  let node: RunningNode
  const datadir = tempDatadir(`anyclient${httpThreads}`)
  const open: RawConnection[] = []
  const connection = () => {
    const c = new RawConnection(node.httpPort)
    open.push(c)
    return c
  }

  beforeAll(async () => {
    node = await startNode(new ChainSpec(devGenesis()), localNodeOptions(datadir, { httpThreads, healthMaxAge: 0 }))
  })
  afterAll(async () => {
    for (const c of open) c.destroy()
    await node.close()
    rmSync(datadir, { recursive: true, force: true })
  })

  it('answers an HTTP/1.0 POST (with or without Host) and closes the connection after the reply', async () => {
    for (const host of ['Host: localhost\r\n', '']) {
      const c = connection()
      c.send(post('1.0', host))
      const reply = await c.reply()
      expect(reply?.status).toBe(200)
      expect(JSON.parse(reply?.body ?? 'null')).toEqual({ jsonrpc: '2.0', id: 1, result: '0x539' })
      expect(reply?.headers.get('connection')?.toLowerCase()).toContain('close')
      expect(await c.endedByServer()).toBe(true)
    }
  })

  it('answers GET /health over HTTP/1.0', async () => {
    const c = connection()
    c.send('GET /health HTTP/1.0\r\n\r\n')
    const reply = await c.reply()
    expect(reply?.status).toBe(200)
    expect(await c.endedByServer()).toBe(true)
  })

  it('keeps an HTTP/1.0 connection that asked for keep-alive, and says so', async () => {
    const c = connection()
    const keepAlive = 'Host: localhost\r\nConnection: Keep-Alive\r\n'
    c.send(post('1.0', keepAlive))
    const first = await c.reply()
    expect(first?.status).toBe(200)
    expect(first?.headers.get('connection')?.toLowerCase()).toContain('keep-alive')
    c.send(post('1.0', keepAlive))
    const second = await c.reply()
    expect(second?.status).toBe(200)
    expect(JSON.parse(second?.body ?? 'null')).toMatchObject({ result: '0x539' })
  })

  it('answers 400 to an HTTP/1.1 request without Host, closes that connection and serves on', async () => {
    const c = connection()
    c.send(post('1.1', ''))
    const reply = await c.reply()
    expect(reply?.status).toBe(400)
    expect(await c.endedByServer()).toBe(true)
    const next = connection()
    next.send(post('1.1', 'Host: localhost\r\n'))
    expect((await next.reply())?.status).toBe(200)
  })

  it('still serves HTTP/1.1 keep-alive without a Connection header in the reply forcing a close', async () => {
    const c = connection()
    c.send(post('1.1', 'Host: localhost\r\n'))
    const first = await c.reply()
    expect(first?.status).toBe(200)
    expect(first?.headers.get('connection')).toBeUndefined()
    c.send(post('1.1', 'Host: localhost\r\n'))
    expect((await c.reply())?.status).toBe(200)
  })
})
