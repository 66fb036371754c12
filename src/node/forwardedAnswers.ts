import { type EnvelopeOptions, handleBody } from '../rpc/envelope.js'
import type { NodeContext } from '../rpc/context.js'
import type { MethodTable } from '../rpc/methodTable.js'
import type { ForwardedCall } from '../rpc/portForwarder.js'
import type { WorkerPool } from '../workers/pool.js'
import { ClientContexts } from './clientContexts.js'

/**
 * The main thread's answers to what the serving threads hand on (a node's or a reader's): each call run through the
 * envelope as if it had come to the main thread's own port from the same client (and, for a WebSocket connection's
 * call, `holder`, the connection's stand-in that holds the filters it installs), and its reply text returned unchanged.
 */
export function forwardedAnswers(
  table: MethodTable,
  env: EnvelopeOptions,
  context: NodeContext,
  lane: WorkerPool,
): (call: ForwardedCall, holder?: object) => Promise<string> {
  const clients = new ClientContexts(context, lane)
  return (call, holder) => {
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 0, method: call.method, params: call.params }))
    const client = call.client
    const ofClient = client === undefined ? context : clients.of(client)
    const ctx = holder === undefined ? ofClient : { ...ofClient, filterHolder: holder }
    const out = handleBody(body, table, env, ctx, () => ctx)
    // A reply given at once may be the envelope's own memory, reused by the next body: read it now.
    if (!(out instanceof Promise)) return Promise.resolve(out === undefined ? '' : out.toString('utf8'))
    return out.then((later) => (later === undefined ? '' : later.toString('utf8')))
  }
}
