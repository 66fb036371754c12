import type { NodeContext } from '../rpc/context.js'
import type { WorkerPool } from '../workers/pool.js'

/** Clients remembered at most; past it the memo starts over (a client then costs one object again). */
const MAX_CLIENTS = 4096

/**
 * The context each HTTP client's requests run in when they hold something as the client's: the endpoint's, with
 * the client's key (its shares of the filters) and the lane counting and dispatching calls as that client's
 * (WorkerPool.forClient). One object per client, made on its first such call and reused.
 */
export class ClientContexts {
  private readonly byClient = new Map<string, NodeContext>()

  constructor(
    private readonly ctx: NodeContext,
    private readonly lane: WorkerPool,
  ) {}

  of(client: string): NodeContext {
    let c = this.byClient.get(client)
    if (c === undefined) {
      if (this.byClient.size >= MAX_CLIENTS) this.byClient.clear()
      c = { ...this.ctx, pool: this.lane.forClient(client), client }
      this.byClient.set(client, c)
    }
    return c
  }
}
