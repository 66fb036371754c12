import { ForwardedError, ServerError } from './errors.js'
import { RawJson } from './reply.js'

/** How long a forwarded call may take: a dev chain's send answers once its block is made. */
const UPSTREAM_TIMEOUT_MS = 60_000

/**
 * The node a reader forwards to (`--rpc.upstream`): one JSON-RPC call at a time over HTTP (fetch keeps its
 * connections alive), answered with the node's own reply — its result as it wrote it, or its error unchanged.
 */
export class Upstream {
  private nextId = 0

  constructor(readonly url: string) {}

  async call(method: string, params: unknown): Promise<RawJson> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: ++this.nextId, method, params })
    let text: string
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
      })
      text = await res.text()
      // A JSON-RPC error comes with 200 (or, from some servers, 4xx/5xx and a JSON body); anything else is the node
      // not answering (draining: 503 with text).
      if (!res.ok && !text.startsWith('{')) throw new Error(`HTTP ${res.status}`)
    } catch (e) {
      throw this.unavailable(e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e))
    }
    let reply: { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } }
    try {
      reply = JSON.parse(text) as typeof reply
    } catch {
      throw this.unavailable('the reply is not JSON')
    }
    const { error } = reply
    if (error !== undefined && error !== null) {
      const code = typeof error.code === 'number' ? error.code : -32603
      throw new ForwardedError(code, typeof error.message === 'string' ? error.message : 'upstream error', error.data)
    }
    if (!('result' in reply)) throw this.unavailable('the reply has neither result nor error')
    return RawJson.of(JSON.stringify(reply.result))
  }

  private unavailable(why: string): ServerError {
    return new ServerError(`upstream ${this.url} unavailable: ${why}`)
  }
}
