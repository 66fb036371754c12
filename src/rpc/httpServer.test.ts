import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type HttpServer, startHttpServer } from './httpServer.js'

// A handler that fails (a bug) must cost its request a 500, not the process: uWS aborts the process when a route
// handler returns with its response neither answered nor given an abort handler, which a synchronous throw from a
// body offered whole (vendor/uws/sponge/whole-body.patch) once did.

let server: HttpServer
let url = ''

beforeAll(async () => {
  server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 1 << 20,
    vhosts: ['*'],
    corsOrigins: [],
    handle: (body) => {
      const text = typeof body === 'string' ? body : Buffer.from(body).toString()
      if (text === '"throw"') throw new Error('a handler bug')
      if (text === '"reject"') return Promise.reject(new Error('a handler bug, later'))
      return Buffer.from(`{"echo":${text}}`)
    },
  })
  url = `http://127.0.0.1:${server.port}/`
})
afterAll(async () => {
  await server.drain()
  server.closeAll()
})

const post = async (body: string, streamed: boolean) => {
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers: { 'content-type': 'application/json' } }
  // A stream goes chunked: uWS delivers it by onData, not whole with the head.
  if (streamed) Object.assign(init, { body: new Blob([body]).stream(), duplex: 'half' })
  else init.body = body
  const r = await fetch(url, init)
  return { status: r.status, body: await r.text() }
}

describe('a handler that fails', () => {
  for (const streamed of [false, true]) {
    it(`answers 500 and the server keeps serving, for a body ${streamed ? 'streamed' : 'read whole with the head'}`, async () => {
      for (const failing of ['"throw"', '"reject"']) {
        const failed = await post(failing, streamed)
        expect(failed.status).toBe(500)
        expect(JSON.parse(failed.body)).toMatchObject({ error: { code: -32603 } })
        expect(await post('[1]', streamed)).toEqual({ status: 200, body: '{"echo":[1]}' })
      }
    })
  }
})
