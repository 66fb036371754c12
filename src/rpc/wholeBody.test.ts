import { connect } from 'node:net'
import type { TemplatedApp } from 'uWebSockets.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeApp, wholeBody } from './uws.js'
import { listenOnFreePort } from '../testing/uwsApp.js'

// Sponge's uWebSockets.js patch (vendor/uws/sponge/whole-body.patch) offers a request's body to the route handler as
// text when it arrived with the head; the server then answers without onData. Here, a server that says what it saw:
// the whole body's text when offered, else the bytes onData delivered.

interface Seen {
  whole?: string
  streamed?: string
}

let app: TemplatedApp
let port = 0

beforeAll(async () => {
  ;({ app, port } = await listenOnFreePort((a) =>
    a.post('/*', (res, req) => {
      const whole = wholeBody(req)
      if (whole !== undefined) {
        res.end(JSON.stringify({ whole } satisfies Seen))
        return
      }
      res.onAborted(() => {})
      const parts: Buffer[] = []
      res.onData((chunk, last) => {
        parts.push(Buffer.from(chunk.slice(0)))
        if (last) res.cork(() => res.end(JSON.stringify({ streamed: Buffer.concat(parts).toString('base64') } satisfies Seen)))
      })
    }),
  ))
})
afterAll(() => closeApp(app))

const head = (length: number, close = false) =>
  Buffer.from(`POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${length}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`, 'latin1')
const request = (body: Buffer, close = true) => Buffer.concat([head(body.length, close), body])

/** Writes `bytes` in one write and collects the replies' bodies until the server closes the connection. */
function exchange(bytes: Buffer): Promise<Seen[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    const chunks: Buffer[] = []
    socket.on('data', (d) => chunks.push(d))
    socket.on('error', reject)
    socket.on('close', () => {
      const seen: Seen[] = []
      let rest = Buffer.concat(chunks)
      for (let end = rest.indexOf('\r\n\r\n'); end >= 0; end = rest.indexOf('\r\n\r\n')) {
        const length = Number(/content-length: (\d+)/i.exec(rest.subarray(0, end).toString('latin1'))?.[1])
        seen.push(JSON.parse(rest.subarray(end + 4, end + 4 + length).toString('utf8')) as Seen)
        rest = rest.subarray(end + 4 + length)
      }
      resolve(seen)
    })
  })
}

describe('the whole body offered to the route handler', () => {
  it('is the body decoded as the envelope decodes bytes: a byte order mark kept, bad UTF-8 replaced', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"method":"é'), Buffer.from([0xff, 0xe2, 0x82]), Buffer.from('"}')])
    const seen = await exchange(request(body))
    expect(seen).toEqual([{ whole: new TextDecoder('utf-8', { ignoreBOM: true }).decode(body) }])
  })

  it('is each pipelined request’s own body', async () => {
    const seen = await exchange(Buffer.concat([request(Buffer.from('[1]'), false), request(Buffer.from('{"a":2}'))]))
    expect(seen).toEqual([{ whole: '[1]' }, { whole: '{"a":2}' }])
  })

  it('is empty for an empty body', async () => {
    expect(await exchange(request(Buffer.alloc(0)))).toEqual([{ whole: '' }])
  })

  it('is not offered for a body larger than one read: onData delivers all of it', async () => {
    // uSockets reads at most 512 KiB at once.
    const body = Buffer.alloc(700_000, 0x61)
    expect(await exchange(request(body))).toEqual([{ streamed: body.toString('base64') }])
  })

  it('is not offered for a chunked body: onData delivers it', async () => {
    const chunked = Buffer.from(
      'POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n',
      'latin1',
    )
    expect(await exchange(chunked)).toEqual([{ streamed: Buffer.from('abcde').toString('base64') }])
  })
})
