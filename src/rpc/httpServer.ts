import type { HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js'
import { loadUws } from './uws.js'

export interface HttpServerOptions {
  host: string
  port: number
  maxBodyBytes: number
  /** Checked before the body is read; false answers 401 and no method runs. */
  authorize?: (authorizationHeader: string) => boolean
  /** Handles one complete body; resolves to the reply's chunks, or undefined for "nothing to send". */
  handle: (body: Uint8Array) => Chunks | undefined | Promise<Chunks | undefined>
}

export interface HttpServer {
  port: number
  close(): void
}

const JSON_HEADER = 'application/json'

type Chunks = (string | Uint8Array)[]

/** The reply's chunks in one buffer, allocated once. */
function toBuffer(chunks: (string | Uint8Array)[]): Buffer {
  let size = 0
  for (const c of chunks) size += typeof c === 'string' ? Buffer.byteLength(c) : c.byteLength
  const out = Buffer.allocUnsafe(size)
  let off = 0
  for (const c of chunks) {
    if (typeof c === 'string') off += out.write(c, off)
    else {
      out.set(c, off)
      off += c.byteLength
    }
  }
  return out
}

/** A JSON-RPC over HTTP server on uWebSockets.js: POST bodies in, replies out, with a body size limit. */
export function startHttpServer(opts: HttpServerOptions): Promise<HttpServer> {
  const uws = loadUws()
  const app: TemplatedApp = uws.App()

  const reply = (res: HttpResponse, state: { aborted: boolean }, status: string, body: Buffer | string) => {
    if (state.aborted) return
    state.aborted = true
    res.cork(() => {
      res.writeStatus(status).writeHeader('Content-Type', JSON_HEADER).end(body)
    })
  }

  app.post('/*', (res, req) => {
    const state = { aborted: false }
    res.onAborted(() => {
      state.aborted = true
    })
    if (opts.authorize !== undefined && !opts.authorize(req.getHeader('authorization'))) {
      reply(res, state, '401 Unauthorized', '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"unauthorized"}}')
      return
    }
    const declared = Number(req.getHeader('content-length') || '0')
    const tooLarge = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large: limit ${opts.maxBodyBytes} bytes"}}`
    if (declared > opts.maxBodyBytes) {
      reply(res, state, '413 Payload Too Large', tooLarge)
      return
    }
    let parts: Buffer[] | undefined
    let size = 0
    res.onData((ab, isLast) => {
      if (state.aborted) return
      size += ab.byteLength
      if (size > opts.maxBodyBytes) {
        reply(res, state, '413 Payload Too Large', tooLarge)
        return
      }
      // uWS reuses the ArrayBuffer after this callback: copy it.
      const chunk = Buffer.from(ab.slice(0))
      if (!isLast) {
        ;(parts ??= []).push(chunk)
        return
      }
      const body = parts === undefined ? chunk : Buffer.concat([...parts, chunk])
      const send = (chunks: Chunks | undefined) => reply(res, state, '200 OK', chunks === undefined ? '' : toBuffer(chunks))
      const out = opts.handle(body)
      if (out instanceof Promise) {
        out.then(send, () =>
          reply(res, state, '500 Internal Server Error', '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}'),
        )
      } else {
        send(out)
      }
    })
  })

  app.any('/*', (res) => {
    res.cork(() => {
      res.writeStatus('405 Method Not Allowed').writeHeader('Allow', 'POST').end('JSON-RPC over HTTP: use POST')
    })
  })

  return new Promise((resolve, reject) => {
    app.listen(opts.host, opts.port, (socket: us_listen_socket | false) => {
      if (socket === false) {
        reject(new Error(`cannot listen on ${opts.host}:${opts.port}`))
        return
      }
      resolve({
        port: uws.us_socket_local_port(socket),
        close: () => {
          uws.us_listen_socket_close(socket)
        },
      })
    })
  })
}
