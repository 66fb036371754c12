import type { NodeContext } from '../rpc/context.js'
import type { HeadStamp } from '../rpc/health.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'
import { HeaderView } from '../store/headerView.js'
import type { Logger } from '../util/logger.js'
import { type EnvelopeOptions, handleBody } from '../rpc/envelope.js'
import { type HttpServer, startHttpServer } from '../rpc/httpServer.js'
import type { MethodTable, Namespace } from '../rpc/methodTable.js'
import type { SubscriptionHub } from '../subscriptions/hub.js'
import type { WorkerPool } from '../workers/pool.js'
import { ClientContexts } from './clientContexts.js'

/** A WebSocket consumer this far behind (bytes queued) is disconnected rather than buffered for. */
const WS_MAX_BACKPRESSURE = 4 * 1024 * 1024

/** What an endpoint's calls reach. */
export interface EndpointBackend {
  table: MethodTable
  /** What handlers reach; its `pool` is `lane`. */
  ctx: NodeContext
  /** The worker lane this endpoint's calls run in, shared by client. */
  lane: WorkerPool
  /** WebSocket on the same port, with eth_subscribe's hub. */
  subscriptions?: SubscriptionHub
}

/** One JSON-RPC endpoint (a port) of a node or a reader. */
export interface EndpointOptions extends EndpointBackend {
  host: string
  port: number
  /** One of the serving threads' apps on their shared port (servingThreads.ts). */
  sharedPort?: boolean
  /** Before each HTTP body and WebSocket message is handled (a serving thread's HeadSequence). */
  beforeRequest?: () => void
  namespaces: readonly Namespace[]
  vhosts: readonly string[]
  corsOrigins: readonly string[]
  maxBodyBytes: number
  /** The envelope's bounds and observers; its namespaces are the endpoint's. */
  envelope: Omit<EnvelopeOptions, 'namespaces'>
  /** Checked before a body is read (the Engine API's JWT). */
  authorize?: (authorizationHeader: string) => boolean
  /** GET /health. */
  health?: (draining: boolean) => { ok: boolean; body: string }
  /** A WebSocket connection has closed (a serving thread tells the main thread, which holds its filters). */
  connectionClosed?: (connection: object) => void
  /** HttpServerOptions.drainingElsewhere: a serving thread's view of the main thread's lifecycle. */
  drainingElsewhere?: () => boolean
  /** Told when a request's answer is promised and when it is given (the Engine API's: public work waits meanwhile). */
  answering?: { begin(): void; end(): void }
}

export interface Endpoint extends HttpServer {
  /**
   * Serves `next` from now on, on the same port (a reader whose datadir was replaced: a new store, lane and hub).
   * The WebSocket connections opened on the one before are closed, since what they subscribed to was its chain's;
   * resolves once the requests it had received are answered, after which it may be closed.
   */
  replace(next: EndpointBackend, why: string): Promise<void>
}

/** A backend as served: its HTTP clients' contexts, its WebSocket connections, its requests not yet answered. */
class Served {
  readonly clients: ClientContexts
  readonly sockets = new Set<(reason: string) => void>()
  private inFlight = 0
  private idle: (() => void) | undefined

  constructor(readonly b: EndpointBackend) {
    this.clients = new ClientContexts(b.ctx, b.lane)
  }

  /** A reply, counted until it is sent when it comes later (a reply given at once is done with already). */
  track<T>(reply: T | Promise<T>): T | Promise<T> {
    if (!(reply instanceof Promise)) return reply
    this.inFlight++
    return reply.finally(() => {
      if (--this.inFlight === 0) this.idle?.()
    })
  }

  retire(why: string): Promise<void> {
    for (const end of this.sockets) end(why)
    return this.inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.idle = resolve))
  }
}

/** Starts an endpoint: each request's calls run as its client's (a WebSocket connection's share is its address's). */
export async function startEndpoint(o: EndpointOptions): Promise<Endpoint> {
  const env: EnvelopeOptions = { ...o.envelope, namespaces: new Set(o.namespaces) }
  let served = new Served(o)
  const server = await startHttpServer({
    host: o.host,
    port: o.port,
    ...(o.sharedPort === true ? { sharedPort: true } : {}),
    maxBodyBytes: o.maxBodyBytes,
    vhosts: o.vhosts,
    corsOrigins: o.corsOrigins,
    ...(o.authorize === undefined ? {} : { authorize: o.authorize }),
    handle: (body, client) => {
      o.beforeRequest?.()
      const s = served
      const out = s.track(handleBody(body, s.b.table, env, s.b.ctx, () => s.clients.of(client())))
      const answering = o.answering
      if (answering === undefined || !(out instanceof Promise)) return out
      answering.begin()
      return out.finally(() => answering.end())
    },
    ...(o.health === undefined ? {} : { health: o.health }),
    ...(o.drainingElsewhere === undefined ? {} : { drainingElsewhere: o.drainingElsewhere }),
    ...(o.subscriptions === undefined
      ? {}
      : {
          ws: {
            maxBackpressure: WS_MAX_BACKPRESSURE,
            open: (send: (text: string) => boolean, remoteAddress: string, end: (reason: string) => void) => {
              // The connection stays with the backend it was opened on: its subscriptions are that chain's.
              const s = served
              const { table, ctx, lane, subscriptions } = s.b
              const connection = subscriptions!.connect(send)
              s.sockets.add(end)
              // The connection holds its own filters, which go with it; its shares (of the lane, of the filters) are
              // its address's, as over HTTP, so that opening more connections buys no more of either.
              const wsCtx: NodeContext = {
                ...ctx,
                connection,
                filterHolder: connection,
                client: remoteAddress,
                pool: lane.forClient(remoteAddress),
              }
              return {
                message: (body: Uint8Array) => {
                  o.beforeRequest?.()
                  return s.track(handleBody(body, table, env, wsCtx))
                },
                close: () => {
                  s.sockets.delete(end)
                  connection.close()
                  ctx.filters.dropConnection(connection)
                  o.connectionClosed?.(connection)
                },
              }
            },
          },
        }),
  })
  return Object.assign(server, {
    replace: (next: EndpointBackend, why: string) => {
      const old = served
      served = new Served(next)
      return old.retire(why)
    },
  })
}

/** The head and its timestamp, for GET /health; undefined when its header cannot be read. */
export function headStamp(chain: ChainReader, store: ChainStore): HeadStamp | undefined {
  const ref = chain.head()
  const header = HeaderView.read(store, ref.hash)
  return header === undefined ? undefined : { number: ref.number, timestamp: header.timestamp }
}

/** Lets the requests the servers have received finish, for at most `boundMs`; logs how many were left if not. */
export async function drainWithin(servers: readonly HttpServer[], boundMs: number, log: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((r) => {
    timer = setTimeout(() => r('late'), boundMs)
  })
  if ((await Promise.race([Promise.all(servers.map((s) => s.drain())), late])) === 'late') {
    const left = servers.reduce((n, s) => n + s.inFlight, 0)
    log.warn('requests still unanswered; closing anyway', { unanswered: left, waitedMs: boundMs })
  }
  clearTimeout(timer)
}

/** The envelope's hook for a handler's own failure (-32603): logged with its stack. */
export const logInternalError =
  (log: Logger) =>
  (method: string, e: unknown): void =>
    log.error('internal error', { method, error: e instanceof Error ? (e.stack ?? e.message) : String(e) })
