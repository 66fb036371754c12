import { isIP } from 'node:net'
import type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, us_listen_socket } from 'uWebSockets.js'
import { closeApp, listenExclusive, listenShared, loadUws, wholeBody } from './uws.js'
import { errorReplyWithoutId } from './envelope.js'
import { InternalError, InvalidRequestError, ServerError } from './errors.js'

export interface HttpServerOptions {
  host: string
  port: number
  /**
   * Listen with SO_REUSEPORT on `port` (not 0), beside the other serving threads' apps (node/servingThreads.ts);
   * otherwise the port is this server's alone.
   */
  sharedPort?: boolean
  maxBodyBytes: number
  /** Host names a request may address (besides IP literals, always allowed, as geth); '*' allows any. */
  vhosts: readonly string[]
  /** Origins a browser page may read replies from (CORS); '*' allows any; empty sends no CORS headers. */
  corsOrigins: readonly string[]
  /** Checked before the body is read; false answers 401 and no method runs. */
  authorize?: (authorizationHeader: string) => boolean
  /**
   * Handles one complete body (its bytes, or its text when uWS read it whole with the head), which it must not keep
   * (bytes may be uWS's own memory). Returns the reply, or undefined for "nothing to send"; a reply returned
   * synchronously may be lent memory and is sent at once. `client` names the sender (its remote address: uWS does
   * not expose the connection), and may be asked only before this returns.
   */
  handle: (body: Uint8Array | string, client: () => string) => Uint8Array | undefined | Promise<Uint8Array | undefined>
  /** Served, WebSocket upgrades on the same port (GET with Upgrade: websocket), subject to the same Host rule. */
  ws?: WsOptions
  /**
   * Served, `GET /health` (and HEAD) for balancers, subject to the same Host rule: 200 when `ok`, else 503, with
   * the body. `draining` says whether drain() has begun.
   */
  health?: (draining: boolean) => { ok: boolean; body: string }
  /**
   * Whether the process has begun to drain before this server was told to (a serving thread learns it from the main
   * thread's shared lifecycle at once, and its drain message a moment later): it then refuses and closes as drain() does.
   */
  drainingElsewhere?: () => boolean
}

export interface WsOptions {
  /** Bytes queued to a connection at most; a consumer that falls further behind is disconnected. */
  maxBackpressure: number
  /**
   * A new connection: its handler of each message (a JSON-RPC body), and what to call once it closes. `end` closes
   * it from the server's side (1012, service restart: what it subscribed to is gone, as when a reader's datadir is
   * replaced).
   */
  open(
    send: (text: string | Uint8Array) => boolean,
    remoteAddress: string,
    end: (reason: string) => void,
  ): {
    message(body: Uint8Array): Uint8Array | undefined | Promise<Uint8Array | undefined>
    close(): void
  }
}

interface WsData {
  session?: ReturnType<WsOptions['open']>
  closed: boolean
}

export interface HttpServer {
  port: number
  /** Requests received and not yet answered. */
  readonly inFlight: number
  /**
   * Stops accepting: the listening socket closes and requests that arrive on open connections get 503. Resolves
   * once every request received before is answered.
   */
  drain(): Promise<void>
  /** Closes every connection at once (after drain: what is left is idle keep-alive connections). */
  closeAll(): void
}

const JSON_HEADER = 'application/json'
/** RFC 6455's close code (IANA registry) for a connection closed because the service behind it restarts. */
const SERVICE_RESTART = 1012
/** RFC 6455's close code for a message larger than the endpoint takes. */
const MESSAGE_TOO_BIG = 1009
/**
 * How long an idle connection is kept at the least, said in every reply: clients (Node's agent, undici) stop reusing a
 * connection a little before, instead of sending their next request into one being closed and failing it. uWS's
 * HTTP idle timeout is 10 s counted in its sweep timer's 4 s ticks (three ticks, the first one partial): a connection
 * is closed 8 to 12 s after a reply (measured 8.2-11.9 s), so 10 was a promise broken half the time (issue 31 item 8).
 * 7: the whole seconds it keeps, a second to spare for a tick that runs a millisecond early.
 */
const KEEP_ALIVE = 'timeout=7'
const OK = '200 OK'
/**
 * The headers read and written on every request, as bytes: uWS converts a string argument to UTF-8 on each call
 * (~0.3 µs of CPU a request for these five, docs/performance.md).
 */
const H = {
  host: Buffer.from('host'),
  contentType: Buffer.from('content-type'),
  contentLength: Buffer.from('content-length'),
  origin: Buffer.from('origin'),
  keepAlive: Buffer.from('Keep-Alive'),
  keepAliveValue: Buffer.from(KEEP_ALIVE),
  contentTypeOut: Buffer.from('Content-Type'),
  json: Buffer.from(JSON_HEADER),
}
const INTERNAL_ERROR = errorReplyWithoutId(new InternalError())
const UNAUTHORIZED = errorReplyWithoutId(new ServerError('unauthorized'))
/** geth's accepted request content types (parameters such as charset allowed). */
const JSON_CONTENT_TYPES = new Set(['application/json', 'application/json-rpc', 'application/jsonrequest'])

function isJsonContentType(header: string): boolean {
  const semi = header.indexOf(';')
  return JSON_CONTENT_TYPES.has((semi < 0 ? header : header.slice(0, semi)).trim().toLowerCase())
}

/** geth's virtual-host rule: no Host (not a browser), an IP literal, or a listed name. */
export function hostAllowed(host: string, vhosts: readonly string[]): boolean {
  if (host === '') return true
  let name = host
  if (name.startsWith('[')) name = name.slice(1, name.indexOf(']'))
  else if (name.split(':').length === 2) name = name.slice(0, name.indexOf(':'))
  if (isIP(name) !== 0) return true
  return vhosts.includes('*') || vhosts.includes(name.toLowerCase())
}

/**
 * A yes/no answer per distinct header value, remembered: clients send the same Host and Content-Type on every
 * request, and parsing them each time was a measurable share of a receipt read. Bounded: past `max` values it
 * starts over (a client cycling through values costs only the parse).
 */
function memo(decide: (value: string) => boolean, max = 256): (value: string) => boolean {
  const seen = new Map<string, boolean>()
  // The last value first: compared as it is, where a lookup hashes the header's new string every time (~0.6% of a
  // serving thread's CPU for the two headers).
  let last = ''
  let lastOk = decide(last)
  return (value) => {
    if (value === last) return lastOk
    let ok = seen.get(value)
    if (ok === undefined) {
      ok = decide(value)
      if (seen.size >= max) seen.clear()
      seen.set(value, ok)
    }
    last = value
    lastOk = ok
    return ok
  }
}

/**
 * The client's address: the connection's. (uWS would read a PROXY protocol header from any connection, so the
 * address it names is not trusted: a client could pick its own key, and with it any number of shares.)
 */
function remoteAddress(res: HttpResponse | WebSocket<WsData>): string {
  return Buffer.from(res.getRemoteAddressAsText()).toString()
}

/** A JSON-RPC over HTTP server on uWebSockets.js: POST bodies in, replies out, with a body size limit. */
export function startHttpServer(opts: HttpServerOptions): Promise<HttpServer> {
  const uws = loadUws()
  const app: TemplatedApp = uws.App()
  const vhosts = opts.vhosts.map((h) => h.toLowerCase())
  const hostOk = memo((host) => hostAllowed(host, vhosts))
  const contentTypeOk = memo(isJsonContentType)
  const cors = opts.corsOrigins.length > 0
  let inFlight = 0
  let draining = false
  let drained: (() => void) | undefined
  const elsewhere = opts.drainingElsewhere
  const closing = elsewhere === undefined ? () => draining : () => draining || elsewhere()

  const boundDigits = String(opts.maxBodyBytes).length
  const tooLarge = errorReplyWithoutId(new InvalidRequestError(`request body too large: limit ${opts.maxBodyBytes} bytes`))

  interface State {
    done: boolean
    origin: string
  }
  const corsOrigin = (origin: string): string | undefined => {
    if (origin === '' || opts.corsOrigins.length === 0) return undefined
    if (opts.corsOrigins.includes('*')) return '*'
    return opts.corsOrigins.includes(origin) ? origin : undefined
  }
  const finish = (state: State) => {
    if (state.done) return false
    state.done = true
    inFlight--
    if (draining && inFlight === 0) drained?.()
    return true
  }
  // `done` is set once a reply is sent or the client went away: nothing may touch `res` after that.
  const write = (res: HttpResponse, state: State, status: string, body: Uint8Array | string, type = JSON_HEADER) => {
    if (status !== OK) res.writeStatus(status)
    const allowed = corsOrigin(state.origin)
    if (allowed !== undefined) res.writeHeader('Access-Control-Allow-Origin', allowed).writeHeader('Vary', 'Origin')
    if (closing()) res.writeHeader('Connection', 'close')
    else res.writeHeader(H.keepAlive, H.keepAliveValue)
    res.writeHeader(H.contentTypeOut, type === JSON_HEADER ? H.json : type).end(body)
  }
  /** From inside a uWS callback, which uWS corks itself. */
  const reply = (res: HttpResponse, state: State, status: string, body: Uint8Array | string, type?: string) => {
    if (finish(state)) write(res, state, status, body, type)
  }
  /** From a later turn (a promised answer): cork, so the status, headers and body leave in one send. */
  const replyLater = (res: HttpResponse, state: State, status: string, body: Uint8Array | string) => {
    if (finish(state)) res.cork(() => write(res, state, status, body))
  }

  /**
   * The checks geth makes before reading a body; false when a refusal was sent. `whole`: the body, when it came whole
   * with the head.
   */
  const admit = (res: HttpResponse, req: HttpRequest, state: State, whole: string | undefined): boolean => {
    if (closing()) {
      reply(res, state, '503 Service Unavailable', 'shutting down', 'text/plain')
      return false
    }
    if (!hostOk(req.getHeader(H.host))) {
      reply(res, state, '403 Forbidden', 'invalid host specified', 'text/plain')
      return false
    }
    if (!contentTypeOk(req.getHeader(H.contentType))) {
      reply(res, state, '415 Unsupported Media Type', 'invalid content type, only application/json is supported', 'text/plain')
      return false
    }
    if (opts.authorize !== undefined && !opts.authorize(req.getHeader('authorization'))) {
      reply(res, state, '401 Unauthorized', UNAUTHORIZED)
      return false
    }
    // A whole body's text is at most 3 bytes a UTF-16 unit (a replaced bad byte is one unit): most bodies are under
    // the bound by that alone, and their length header is not read (a call into the transport and a string).
    if (whole !== undefined && whole.length * 3 <= opts.maxBodyBytes) return true
    // A length with fewer characters than the bound's digits is under it (or no number): Number() is a runtime call.
    const length = req.getHeader(H.contentLength)
    if (length.length >= boundDigits && Number(length) > opts.maxBodyBytes) {
      reply(res, state, '413 Payload Too Large', tooLarge)
      return false
    }
    return true
  }

  const answer = (res: HttpResponse, state: State, body: Uint8Array | string) => {
    let out: ReturnType<HttpServerOptions['handle']>
    try {
      out = opts.handle(body, () => remoteAddress(res))
    } catch {
      // A bug in the handler costs its request a 500, as a rejection does. Thrown on, it would leave a whole-body
      // request unanswered and without an abort handler when the route handler returns, which uWS punishes by
      // aborting the process.
      reply(res, state, '500 Internal Server Error', INTERNAL_ERROR)
      return
    }
    if (out instanceof Promise) {
      out.then(
        (later) => replyLater(res, state, OK, later ?? ''),
        () => replyLater(res, state, '500 Internal Server Error', INTERNAL_ERROR),
      )
    } else {
      reply(res, state, OK, out ?? '')
    }
  }

  app.post('/*', (res, req) => {
    inFlight++
    const state: State = { done: false, origin: cors ? req.getHeader(H.origin) : '' }
    // Refusals and answers given before this handler returns need no abort handler (uWS asks one of a response
    // still open when it returns).
    const whole = wholeBody(req)
    if (!admit(res, req, state, whole)) return
    if (whole !== undefined) {
      answer(res, state, whole)
      if (!state.done) res.onAborted(() => finish(state))
      return
    }
    res.onAborted(() => {
      finish(state)
    })
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
      answer(res, state, parts === undefined ? new Uint8Array(ab) : Buffer.concat([...parts, new Uint8Array(ab)]))
    })
  })

  // CORS preflight: allowed origins learn what they may send; others get no CORS headers (the browser refuses).
  app.options('/*', (res, req) => {
    const allowed = corsOrigin(req.getHeader('origin'))
    const wanted = req.getHeader('access-control-request-headers')
    res.writeStatus('204 No Content')
    if (allowed !== undefined) {
      res
        .writeHeader('Access-Control-Allow-Origin', allowed)
        .writeHeader('Vary', 'Origin')
        .writeHeader('Access-Control-Allow-Methods', 'POST, GET')
        .writeHeader('Access-Control-Allow-Headers', wanted === '' ? 'content-type' : wanted)
        .writeHeader('Access-Control-Max-Age', '600')
    }
    res.end()
  })

  const sockets = new Set<WebSocket<WsData>>()
  if (opts.ws !== undefined) {
    const ws = opts.ws
    app.ws<WsData>('/*', {
      // uWS drops a connection whose message passes its own limit without a close frame; up to twice ours it hands
      // the message over and we close with 1009 as RFC 6455 asks. Past that, the drop (memory stays bounded).
      maxPayloadLength: opts.maxBodyBytes * 2,
      maxBackpressure: ws.maxBackpressure,
      closeOnBackpressureLimit: 1,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => {
        const origin = req.getHeader('origin')
        if (closing()) {
          res.writeStatus('503 Service Unavailable').end('shutting down')
        } else if (!hostOk(req.getHeader('host'))) {
          res.writeStatus('403 Forbidden').end('invalid host specified')
        } else if (origin !== '' && corsOrigin(origin) === undefined) {
          // A page may open a socket to any address; only the origins allowed to read HTTP replies may.
          res.writeStatus('403 Forbidden').end('origin not allowed')
        } else {
          res.upgrade<WsData>(
            { closed: false },
            req.getHeader('sec-websocket-key'),
            req.getHeader('sec-websocket-protocol'),
            req.getHeader('sec-websocket-extensions'),
            context,
          )
        }
      },
      open: (socket) => {
        const data = socket.getUserData()
        // Once closed, uWS frees the socket: nothing may touch it after (sends then report false).
        data.session = ws.open(
          (text) => !data.closed && socket.send(text, false) !== 2,
          remoteAddress(socket),
          (reason) => {
            if (!data.closed) socket.end(SERVICE_RESTART, reason)
          },
        )
        sockets.add(socket)
      },
      message: (socket, message) => {
        const data = socket.getUserData()
        if (message.byteLength > opts.maxBodyBytes) {
          socket.end(MESSAGE_TOO_BIG, `message too big: limit ${opts.maxBodyBytes} bytes`)
          return
        }
        const out = data.session!.message(new Uint8Array(message.slice(0)))
        if (out instanceof Promise) {
          out.then(
            (later) => {
              if (later !== undefined && !data.closed) socket.cork(() => socket.send(later, false))
            },
            () => {
              if (!data.closed) socket.send(INTERNAL_ERROR, false)
            },
          )
        } else if (out !== undefined) {
          socket.send(out, false)
        }
      },
      close: (socket) => {
        const data = socket.getUserData()
        data.closed = true
        sockets.delete(socket)
        data.session?.close()
      },
    })
  }

  if (opts.health !== undefined) {
    const health = opts.health
    // No body and no content type asked for: a balancer's check is a bare GET (or HEAD). Not counted in flight.
    const answer = (res: HttpResponse, req: HttpRequest, withBody: boolean) => {
      if (!hostOk(req.getHeader('host'))) {
        res.writeStatus('403 Forbidden').end('invalid host specified')
        return
      }
      let h: { ok: boolean; body: string }
      try {
        h = health(closing())
      } catch {
        res.writeStatus('500 Internal Server Error').writeHeader('Cache-Control', 'no-store').end('health unknown')
        return
      }
      if (!h.ok) res.writeStatus('503 Service Unavailable')
      if (closing()) res.writeHeader('Connection', 'close')
      else res.writeHeader('Keep-Alive', KEEP_ALIVE)
      res.writeHeader('Content-Type', JSON_HEADER).writeHeader('Cache-Control', 'no-store')
      if (withBody) res.end(h.body)
      // HEAD: the length GET would send. (endWithoutBody(length) aborts this uWS build: the header is written here.)
      else res.writeHeader('Content-Length', String(Buffer.byteLength(h.body))).endWithoutBody()
    }
    app.get('/health', (res, req) => answer(res, req, true))
    app.head('/health', (res, req) => answer(res, req, false))
  }

  app.any('/*', (res) => {
    res.writeStatus('405 Method Not Allowed').writeHeader('Allow', 'POST').end('JSON-RPC over HTTP: use POST')
  })

  return new Promise((resolve, reject) => {
    const listen = opts.sharedPort === true ? listenShared : listenExclusive
    listen(app, opts.host, opts.port, (socket: us_listen_socket | false) => {
      if (socket === false) {
        reject(new Error(`cannot listen on ${opts.host}:${opts.port}: the address is in use or not available`))
        return
      }
      const done = new Promise<void>((r) => {
        drained = r
      })
      resolve({
        port: uws.us_socket_local_port(socket),
        get inFlight() {
          return inFlight
        },
        drain: () => {
          if (!draining) {
            draining = true
            uws.us_listen_socket_close(socket)
            for (const s of sockets) s.end(1001, 'shutting down')
            if (inFlight === 0) drained?.()
          }
          return done
        },
        closeAll: () => closeApp(app),
      })
    })
  })
}
