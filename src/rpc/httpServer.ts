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
const OK = '200 OK'
const INTERNAL_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}'

/** A JSON-RPC over HTTP server on uWebSockets.js: POST bodies in, replies out, with a body size limit. */
export function startHttpServer(opts: HttpServerOptions): Promise<HttpServer> {
  const uws = loadUws()
  const app: TemplatedApp = uws.App()

  const tooLarge = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"request body too large: limit ${opts.maxBodyBytes} bytes"}}`

  // `done` is set once a reply is sent or the client went away: nothing may touch `res` after that.
  const write = (res: HttpResponse, status: string, body: Uint8Array | string) => {
    if (status !== OK) res.writeStatus(status)
    res.writeHeader('Content-Type', JSON_HEADER).end(body)
  }
  /** From inside a uWS callback, which uWS corks itself. */
  const reply = (res: HttpResponse, state: { done: boolean }, status: string, body: Uint8Array | string) => {
    if (state.done) return
    state.done = true
    write(res, status, body)
  }
  /** From a later turn (a promised answer): cork, so the status, headers and body leave in one send. */
  const replyLater = (res: HttpResponse, state: { done: boolean }, status: string, body: Uint8Array | string) => {
    if (state.done) return
    state.done = true
    res.cork(() => write(res, status, body))
  }

  app.post('/*', (res, req) => {
    const state = { done: false }
    res.onAborted(() => {
      state.done = true
    })
    if (opts.authorize !== undefined && !opts.authorize(req.getHeader('authorization'))) {
      reply(res, state, '401 Unauthorized', '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"unauthorized"}}')
      return
    }
    const declared = Number(req.getHeader('content-length') || '0')
    if (declared > opts.maxBodyBytes) {
      reply(res, state, '413 Payload Too Large', tooLarge)
      return
    }
    let parts: Buffer[] | undefined
    let size = 0
    res.onData((ab, isLast) => {
      if (state.done) return
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
      const out = opts.handle(body)
      if (out instanceof Promise) {
        out.then(
          (later) => replyLater(res, state, OK, later ?? ''),
          () => replyLater(res, state, '500 Internal Server Error', INTERNAL_ERROR),
        )
      } else {
        reply(res, state, OK, out ?? '')
      }
    })
  })

  app.any('/*', (res) => {
    res.writeStatus('405 Method Not Allowed').writeHeader('Allow', 'POST').end('JSON-RPC over HTTP: use POST')
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
