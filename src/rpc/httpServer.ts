import type { HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js'
import { loadUws } from './uws.js'

export interface HttpServerOptions {
  host: string
  port: number
  maxBodyBytes: number
  /** Checked before the body is read; false answers 401 and no method runs. */
  authorize?: (authorizationHeader: string) => boolean
  /**
   * Handles one complete body, which it must not keep (it may be uWS's own memory). Returns the reply, or
   * undefined for "nothing to send"; a reply returned synchronously may be lent memory and is sent at once.
   */
  handle: (body: Uint8Array) => Uint8Array | undefined | Promise<Uint8Array | undefined>
}

export interface HttpServer {
  port: number
  close(): void
}

const JSON_HEADER = 'application/json'

/** A JSON-RPC over HTTP server on uWebSockets.js: POST bodies in, replies out, with a body size limit. */
export function startHttpServer(opts: HttpServerOptions): Promise<HttpServer> {
  const uws = loadUws()
  const app: TemplatedApp = uws.App()

  const reply = (res: HttpResponse, state: { aborted: boolean }, status: string, body: Uint8Array | string) => {
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
      if (!isLast) {
        // uWS reuses the ArrayBuffer after this callback: keep a copy of every chunk but the last.
        ;(parts ??= []).push(Buffer.from(ab.slice(0)))
        return
      }
      // The last (usually only) chunk is handled before this callback returns: no copy.
      const body = parts === undefined ? new Uint8Array(ab) : Buffer.concat([...parts, new Uint8Array(ab)])
      const send = (out: Uint8Array | undefined) => reply(res, state, '200 OK', out ?? '')
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
