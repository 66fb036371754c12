import { Agent, type IncomingHttpHeaders, request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { sendMined, startTestNode } from '../testing/testNode.js'

// GET /health on the JSON-RPC port, as a balancer asks it. The dev genesis has timestamp 0: a node off dev mode has
// a head decades old, stale under any bound, with no clock to control.

interface Reply {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

function get(port: number, opts: { method?: string; headers?: Record<string, string>; agent?: Agent } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: '/health',
        headers: opts.headers ?? {},
        ...(opts.agent ? { agent: opts.agent } : {}),
      },
      (res) => {
        let text = ''
        res.on('data', (d: Buffer) => (text += d.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('GET /health', () => {
  it('200 with the head on a dev node (never stale with a block per transaction); HEAD too; Host as JSON-RPC', async () => {
    const n = await startTestNode({ dev: {}, devAccounts: devAccounts() })
    try {
      const port = n.node.httpPort
      const first = await get(port)
      expect(first.status).toBe(200)
      expect(first.headers['content-type']).toBe('application/json')
      expect(first.headers['cache-control']).toBe('no-store')
      expect(JSON.parse(first.body)).toMatchObject({ status: 'ok', head: 0 })
      await sendMined(n, 'eth_sendTransaction', { from: devAccounts()[0]!.address, to: devAccounts()[1]!.address, value: '0x1' })
      const after = JSON.parse((await get(port)).body) as { status: string; head: number; age: number }
      expect(after).toMatchObject({ status: 'ok', head: 1 })
      expect(after.age).toBeGreaterThanOrEqual(0)
      const head = await get(port, { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.body).toBe('')
      expect(Number(head.headers['content-length'])).toBeGreaterThan(0)
      expect((await get(port, { headers: { host: 'localhost:8545' } })).status).toBe(200)
      expect((await get(port, { headers: { host: 'attacker.example' } })).status).toBe(403)
    } finally {
      await n.close()
    }
  })

  it('503 stale when the head is older than --health.maxage; 0 is never stale', async () => {
    const n = await startTestNode({ healthMaxAge: 1 })
    try {
      const reply = await get(n.node.httpPort)
      expect(reply.status).toBe(503)
      const body = JSON.parse(reply.body) as { status: string; head: number; age: number }
      expect(body).toMatchObject({ status: 'stale', head: 0 })
      expect(body.age).toBeGreaterThan(1)
    } finally {
      await n.close()
    }
    const never = await startTestNode({ healthMaxAge: 0 })
    try {
      expect(JSON.parse((await get(never.node.httpPort)).body)).toMatchObject({ status: 'ok', head: 0 })
    } finally {
      await never.close()
    }
  })

  // With serving threads, a thread drains on the main thread's word: a request it takes before that word is 503
  // draining (it reads the shared lifecycle), and once it has drained it closes idle connections, as Go's
  // Server.Shutdown does: then the open connection is reset instead.
  it.each([1, 2])(
    '503 draining once close() began, on a connection already open; the Engine API port has no /health (--http.threads %i)',
    async (threads) => {
      const n = await startTestNode({ healthMaxAge: 0, httpThreads: threads })
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      try {
        expect((await get(n.node.httpPort, { agent })).status).toBe(200)
        expect((await get(n.node.authPort!)).status).toBe(405)
        const closed = n.close()
        const reply = await get(n.node.httpPort, { agent }).catch((e: NodeJS.ErrnoException) => e)
        if (threads > 1 && reply instanceof Error) expect(reply.code).toBe('ECONNRESET')
        else {
          if (reply instanceof Error) throw reply
          expect(reply.status).toBe(503)
          expect(reply.headers.connection).toBe('close')
          expect(JSON.parse(reply.body)).toEqual({ status: 'draining', head: 0, age: expect.any(Number) })
        }
        await closed
      } finally {
        agent.destroy()
        await n.close()
      }
    },
  )
})
