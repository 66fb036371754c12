import type { Namespace } from '../rpc/methodTable.js'
import { availableParallelism } from 'node:os'
import { defaultPoolSize } from '../workers/pool.js'

/**
 * The node's settings that have a default. Defined here only: startNode applies them to the options it is not
 * given, and the command line's flag table (src/cli/flags.ts) shows and applies the same values.
 */
export interface NodeDefaults {
  readonly http: {
    readonly host: string
    readonly port: number
    readonly apis: readonly Namespace[]
    /** Host names a request may address besides IP literals (geth's default). */
    readonly vhosts: readonly string[]
    /** Origins a browser page may read replies from: none. */
    readonly corsOrigins: readonly string[]
  }
  readonly authrpc: {
    readonly host: string
    readonly port: number
    readonly vhosts: readonly string[]
    /** The JWT secret's file in the data directory, created if missing. */
    readonly jwtSecretFile: string
  }
  readonly metrics: { readonly host: string; readonly port: number }
  /** Worker threads of the public lane: one per core, less the serving thread's. */
  readonly workers: number
  /** Threads serving the public port: one per core (servingThreads.ts); 1 is the main thread alone. */
  readonly httpThreads: number
  /** Worker threads reserved for the Engine API. */
  readonly engineWorkers: number
  /** Public calls admitted to the pool and not yet answered, at most; past it, -32005 at once. */
  readonly maxQueue: number
  /** The largest request body (and WebSocket message), bytes. */
  readonly maxBodyBytes: number
  /** The most calls in one JSON-RPC batch. */
  readonly maxBatch: number
  /** The largest reply to one call, bytes (reth's --rpc.max-response-size, 160 MiB). */
  readonly maxReplyBytes: number
  /** A batch's reply, bytes, past which its calls not yet answered get -32003 (geth's 25 MB). */
  readonly maxBatchReplyBytes: number
  /** The gas limit built blocks move toward. */
  readonly minerGasLimit: bigint
  /** The most transactions in the pool. */
  readonly txPoolSize: number
  /** The most transactions one sender may pool: a quarter of the pool. */
  readonly txPoolAccountSlots: number
  /** The most gas eth_call and eth_estimateGas may use (as geth). */
  readonly gasCap: bigint
  /** An eth_call running longer is stopped and answered with an error. */
  readonly evmTimeoutMs: number
  /** Take legacy transactions without EIP-155 replay protection over RPC (geth's default: refuse them). */
  readonly allowUnprotectedTxs: boolean
  /** The most blocks one eth_getLogs range may span (as reth). */
  readonly logsMaxRange: number
  /** The most logs one query may return. */
  readonly logsMaxResults: number
  /** How long close() lets requests already received finish before it closes the pool and store anyway. */
  readonly drainTimeoutMs: number
  /**
   * GET /health's bound on the head's age, seconds, off dev mode: five 12 s slots, a head a consensus client has
   * surely stopped moving (Erigon's /health takes such a bound per request: X-ERIGON-HEALTHCHECK max_seconds_behind).
   */
  readonly healthMaxAge: number
}

const TX_POOL_SIZE = 4096

export const NODE_DEFAULTS: NodeDefaults = deepFreeze({
  http: { host: '127.0.0.1', port: 8545, apis: ['eth', 'net', 'web3'], vhosts: ['localhost'], corsOrigins: [] },
  authrpc: { host: '127.0.0.1', port: 8551, vhosts: ['localhost'], jwtSecretFile: 'jwt.hex' },
  metrics: { host: '127.0.0.1', port: 6060 },
  workers: defaultPoolSize(),
  // One per core, as geth and reth serve RPC on every core; the main thread keeps the writer and the Engine API.
  httpThreads: Math.min(256, availableParallelism()),
  engineWorkers: 1,
  maxQueue: 1024,
  maxBodyBytes: 5 * 1024 * 1024,
  maxBatch: 1000,
  maxReplyBytes: 160 * 1024 * 1024,
  maxBatchReplyBytes: 25_000_000,
  minerGasLimit: 60_000_000n,
  txPoolSize: TX_POOL_SIZE,
  txPoolAccountSlots: TX_POOL_SIZE / 4,
  gasCap: 50_000_000n,
  evmTimeoutMs: 5_000,
  allowUnprotectedTxs: false,
  logsMaxRange: 100_000,
  logsMaxResults: 10_000,
  drainTimeoutMs: 10_000,
  healthMaxAge: 60,
} satisfies NodeDefaults)

/** A reader's own settings (`sponge rpc`, reader.ts); the rest it shares with the node, from NODE_DEFAULTS. */
export const READER_DEFAULTS = {
  /** The head watcher's poll, ms: the bound on the lag when no file event comes (inotify usually comes first). */
  pollMs: 100,
  /**
   * How often the reader checks on its node, ms: whether the datadir's data file is still the one it reads, whether
   * the node still holds the datadir, whether its heartbeat moves, and (with --rpc.upstream) whether it answers a ping.
   */
  nodeCheckMs: 1000,
  /**
   * A ping's bound, ms: a node answers eth_blockNumber in well under a millisecond, so two seconds without a reply
   * is a node frozen or wedged (or a pause long enough that a send would wait as long), not a slow one.
   */
  pingTimeoutMs: 2000,
  /**
   * How long the node's heartbeat (store/heartbeat.ts: a touch each second from its serving thread) may stand still
   * before the reader says the node is lifeless, ms. A GC pause or a loaded machine delays a beat by far less; five
   * missed beats is a serving thread that answers nothing (frozen, or held by one request that long), and it still
   * changes between looks on a filesystem with coarse (1-2 s) file times.
   */
  lifelessMs: 5000,
  /**
   * A forwarded call's bound, ms (the node answers pings but not this call): a send is pooled, or in dev mode mined,
   * in milliseconds. viem's default timeout is as long, so viem gives up about when the reader does; clients that
   * wait longer (ethers, cast, curl) get the reader's -32000 rather than a hang.
   */
  forwardTimeoutMs: 10_000,
  /** How often a reader started before the node looks for its store, ms. */
  waitMs: 200,
  /**
   * How long a reader waits for a chain in a datadir that no node holds, ms: a node started beside it holds the
   * datadir within seconds (and is then waited for as long as it holds it); a minute with none means the path is
   * not the node's.
   */
  storeWaitMs: 60_000,
  /** Blocks the head taken in may be behind the store's before /health says stale. */
  healthMaxLag: 2,
} as const

function deepFreeze<T extends object>(o: T): T {
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) deepFreeze(v as object)
  return Object.freeze(o)
}
