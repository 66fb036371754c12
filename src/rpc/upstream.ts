import { ForwardedError, ServerError } from './errors.js'
import { RawJson } from './reply.js'

/** Where a reader's (or a serving thread's) calls that only the node can answer go: answered with the node's reply. */
export interface Forwarder {
  /**
   * `client`: whose call it is (its shares of what clients hold on the node), where the forwarder can carry it;
   * `filterHolder`: the WebSocket connection it came on (NodeContext.filterHolder), likewise.
   */
  call(method: string, params: unknown, client?: string, filterHolder?: object): Promise<RawJson>
}

/** The bounds on waiting for the node (node/defaults.ts: READER_DEFAULTS gives a reader's). */
export interface UpstreamTimeouts {
  /** A forwarded call, ms: past it the client gets -32000 (the node may still act on the call). */
  callTimeoutMs: number
  /** A ping, ms: a node that has not answered within it does not answer. */
  pingTimeoutMs: number
}

/** What a ping asks: the cheapest read there is, answered by the node's serving thread from its store. */
const PING = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] })

/**
 * The node a reader forwards to (`--rpc.upstream`): one JSON-RPC call at a time over HTTP (fetch keeps its
 * connections alive), answered with the node's own reply — its result as it wrote it, or its error unchanged.
 *
 * Whether the node answers at all is learnt by `ping`, which the reader makes each second (node/reader.ts): a node
 * that is frozen (SIGSTOP), wedged or gone takes connections, or not, and answers nothing, and a reader must neither
 * say it is healthy nor let its clients' sends join the wait. While the last ping found the node silent, a call is
 * refused at once; every call's own wait is bounded too (a node that answers pings but not this call).
 */
export class Upstream implements Forwarder {
  private nextId = 0
  private silent: string | undefined

  constructor(
    readonly url: string,
    private readonly timeouts: UpstreamTimeouts,
  ) {}

  /** Why the node is taken not to answer (its last ping failed); undefined while it answers, or before any ping. */
  get problem(): string | undefined {
    return this.silent === undefined ? undefined : `the node does not answer at ${this.url}: ${this.silent}`
  }

  /** Asks the node for its head, bounded by pingTimeoutMs; whether it answered (`problem` says why not). */
  async ping(): Promise<boolean> {
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: PING,
        signal: AbortSignal.timeout(this.timeouts.pingTimeoutMs),
      })
      const text = await res.text()
      // A JSON-RPC error is an answer too, but not to this: a node that cannot read its head is not one to send to.
      if (typeof headIn(text) !== 'string') throw new Error(`HTTP ${res.status}, no head in the reply: ${text.slice(0, 100)}`)
      this.silent = undefined
      return true
    } catch (e) {
      this.silent = isTimeout(e) ? `no reply within ${seconds(this.timeouts.pingTimeoutMs)}` : why(e)
      return false
    }
  }

  async call(method: string, params: unknown): Promise<RawJson> {
    if (this.silent !== undefined) throw new ServerError(`upstream ${this.url} does not answer (${this.silent}): ${method} not forwarded`)
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++this.nextId, method, params })
    let text: string
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(this.timeouts.callTimeoutMs),
      })
      text = await res.text()
      // A JSON-RPC error comes with 200 (or, from some servers, 4xx/5xx and a JSON body); anything else is the node
      // not answering (draining: 503 with text).
      if (!res.ok && !text.startsWith('{')) throw new Error(`HTTP ${res.status}`)
    } catch (e) {
      if (isTimeout(e)) {
        // Sent, perhaps taken: the client must not read the silence as a refusal.
        throw new ServerError(
          `upstream ${this.url} did not answer ${method} within ${seconds(this.timeouts.callTimeoutMs)}: the node may still act on it`,
        )
      }
      throw this.unavailable(why(e))
    }
    return nodeReply(text, (why) => this.unavailable(why))
  }

  private unavailable(why: string): ServerError {
    return new ServerError(`upstream ${this.url} unavailable: ${why}`)
  }
}

/**
 * The node's reply to one forwarded call, as the client is to get it: its result as the node wrote it, or its error
 * unchanged (ForwardedError); `unavailable` makes the error for a reply that is neither.
 */
export function nodeReply(text: string, unavailable: (why: string) => Error): RawJson {
  let reply: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }
  try {
    reply = JSON.parse(text) as typeof reply
  } catch {
    throw unavailable('the reply is not JSON')
  }
  const { error } = reply
  if (error !== undefined && error !== null) {
    const code = typeof error.code === 'number' ? error.code : -32603
    throw new ForwardedError(code, typeof error.message === 'string' ? error.message : 'upstream error', error.data)
  }
  if (!('result' in reply)) throw unavailable('the reply has neither result nor error')
  return RawJson.of(JSON.stringify(reply.result))
}

function headIn(text: string): unknown {
  try {
    return (JSON.parse(text) as { result?: unknown }).result
  } catch {
    return undefined
  }
}

/** AbortSignal.timeout's abort, as fetch rejects with it (a DOMException named TimeoutError). */
function isTimeout(e: unknown): boolean {
  return e instanceof Error && e.name === 'TimeoutError'
}

/** What went wrong, in the words of its cause (fetch wraps the socket's error: "connect ECONNREFUSED …"). */
function why(e: unknown): string {
  return e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e)
}

function seconds(ms: number): string {
  return `${ms / 1000} s`
}
