import type { NodeContext } from '../context.js'
import { ServerError } from '../errors.js'
import type { MethodDef, MethodTable, Namespace } from '../methodTable.js'
import type { Reply } from '../reply.js'
import type { SyncingResult } from '../../wire/results.js'
import { toQuantity } from '../../util/hex.js'

// What a reader (`sponge rpc`, node/reader.ts) serves: the node's table, less what only the node can do. The Engine
// API and testing_ are not served at all; what changes or reads the node's pool and block making (sends, the dev
// wallet's send, txpool_*, evm_*) goes to the node named by --rpc.upstream and is answered with its reply, as
// Erigon's rpcdaemon hands transactions to its node's pool.

/** Namespaces a reader never serves. */
const NODE_ONLY: readonly Namespace[] = ['engine', 'testing']

/** Methods answered by the upstream node, as it answers them. */
const FORWARDED: ReadonlySet<string> = new Set([
  'eth_sendRawTransaction',
  'eth_sendTransaction',
  'eth_fillTransaction',
  'eth_pendingTransactions',
  'txpool_status',
  'txpool_content',
  'txpool_contentFrom',
  'txpool_inspect',
  'evm_mine',
  'evm_snapshot',
  'evm_revert',
  'evm_setNextBlockTimestamp',
])

/** Reads by transaction hash that find a pooled transaction too: answered from the node's pool when not mined. */
const POOLED_BY_HASH = ['eth_getTransactionByHash', 'debug_getRawTransaction']

export interface ReaderTableOptions {
  /** eth_syncing: the reader's own answer (it is behind while it has not taken in the node's newest head). */
  syncing(): SyncingResult
  /**
   * What is forwarded besides FORWARDED: a serving thread inside the node (node/servingThread.ts) also hands on the
   * namespaces a reader drops (testing) and the methods whose state lives on the node's main thread (filters).
   */
  forwardAlso?: { namespaces: readonly Namespace[]; methods: ReadonlySet<string> }
}

/** The reader's method table from the node's. */
export function readerMethods(base: MethodTable, opts: ReaderTableOptions): MethodTable {
  const table = new Map<string, MethodDef>()
  const also = opts.forwardAlso
  for (const [name, def] of base) {
    const forwarded = FORWARDED.has(name) || also?.methods.has(name) === true || also?.namespaces.includes(def.namespace) === true
    if (!forwarded && NODE_ONLY.includes(def.namespace)) continue
    // A method that holds something per client (filters) is forwarded as its client's.
    const runsIn = def.runsIn === 'threadAsClient' ? 'threadAsClient' : 'thread'
    table.set(name, forwarded ? { ...def, runsIn, handle: (params: unknown, ctx) => forward(ctx, name, params), kept: undefined } : def)
  }
  const count = base.get('eth_getTransactionCount')
  // The pending nonce counts the node's pooled transactions: a wallet sending twice through a balancer needs it.
  if (count !== undefined) {
    table.set('eth_getTransactionCount', {
      ...count,
      handle: (params: [string, unknown], ctx) =>
        params[1] === 'pending' && ctx.upstream !== undefined ? forward(ctx, 'eth_getTransactionCount', params) : count.handle(params as never, ctx),
    })
  }
  // A transaction not mined yet is in the node's pool: asked by hash, what the store does not hold is asked there.
  for (const name of POOLED_BY_HASH) {
    const def = base.get(name)
    if (def === undefined) continue
    table.set(name, {
      ...def,
      handle: (params: unknown, ctx) => {
        const orPooled = (mined: Reply) => (mined === null && ctx.upstream !== undefined ? forward(ctx, name, params) : mined)
        const mined = def.handle(params as never, ctx)
        return mined instanceof Promise ? mined.then(orPooled) : orPooled(mined)
      },
    })
  }
  const syncing = base.get('eth_syncing')
  if (syncing !== undefined && also?.methods.has('eth_syncing') !== true) table.set('eth_syncing', { ...syncing, handle: () => opts.syncing() })
  return table
}

/**
 * eth_syncing on a reader: behind while the head it has taken in (store/headWatcher.ts: what its subscriptions have
 * pushed) is below the newest the node has stored; geth's shape, from the head taken in to the node's.
 */
export function readerSyncing(stored: bigint, takenIn: bigint): SyncingResult {
  if (takenIn >= stored) return false
  return { startingBlock: toQuantity(takenIn), currentBlock: toQuantity(takenIn), highestBlock: toQuantity(stored) }
}

function forward(ctx: Pick<NodeContext, 'upstream' | 'client' | 'filterHolder'>, method: string, params: unknown): Promise<Reply> {
  if (ctx.upstream === undefined) {
    return Promise.reject(new ServerError(`read-only reader: ${method} is the node's; start the reader with --rpc.upstream <node url> to forward it`))
  }
  return ctx.upstream.call(method, params, ctx.client, ctx.filterHolder)
}
