import type { ChainSpec } from '../chain/spec.js'
import type { EngineService } from '../engine/engineService.js'
import type { FilterRegistry } from '../logs/filters.js'
import type { SubscriberConnection } from '../subscriptions/hub.js'
import type { PayloadBuilds } from '../engine/payloadBuilds.js'
import type { FeeOracle } from '../fees/feeOracle.js'
import type { FlatStateReader } from '../state/flatStateReader.js'
import type { TxSubmission } from '../txpool/txSubmission.js'
import type { DevDriver } from '../dev/devDriver.js'
import type { TxPool } from '../txpool/txPool.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStoreReads } from '../store/chainStore.js'
import type { TxReplies } from '../store/txReplies.js'
import type { Lane } from '../workers/pool.js'
import type { ThreadCalls } from '../calls/threadCalls.js'
import type { Forwarder } from './upstream.js'
import type { KeyedLock } from '../util/keyedLock.js'
import { ErrorCode, RpcError } from './errors.js'

/**
 * What method handlers may reach, read-only: the chain and the store's read side, the lanes, the engine and pool
 * services, and the node's fixed facts. Made whole before any endpoint serves; a handler declares the members it
 * uses (a Pick of this), so each file says what it depends on.
 */
export interface NodeContext {
  readonly spec: ChainSpec
  readonly store: ChainStoreReads
  readonly chain: ChainReader
  /**
   * The worker pool lane of the endpoint serving the request (public, or the engine's on the auth port), as the
   * requesting client's: its calls are counted and dispatched as that client's.
   */
  readonly pool: Lane
  // The node's writing parts: a reader (`sponge rpc`, node/reader.ts) has none, and serves no method that needs them
  // (rpc/methods/readerTable.ts forwards those to its upstream).
  readonly engine?: EngineService
  readonly builds?: PayloadBuilds
  readonly txs?: TxSubmission
  /** The transaction pool; a reader has none (pending transactions are the node's). */
  readonly txPool?: TxPool
  /**
   * The dev wallet's nonce lock (geth's AddrLocker), by lowercase address: an eth_sendTransaction without a nonce is
   * filled, signed and pooled under its sender's key. A reader forwards sends and has none.
   */
  readonly nonceLock?: KeyedLock
  /**
   * Where what only the node can do goes: a reader's --rpc.upstream (over HTTP), a serving thread's main thread (over
   * a MessagePort); undefined on the node's main thread, or a reader without one.
   */
  readonly upstream?: Forwarder
  readonly genesisHash: Uint8Array
  readonly clientVersion: string
  /** eth_accounts: the dev chain's funded accounts, none elsewhere. */
  readonly devAccounts: readonly string[]
  /** Their keys (public knowledge), by lowercase address: the dev wallet's (eth_sendTransaction, eth_sign). */
  readonly devKeys: ReadonlyMap<string, string>
  /** eth_call and eth_estimateGas run here when they are cheap (calls/threadCalls.ts), else in the lane. */
  readonly calls: ThreadCalls
  /** State reads the flat table answers on the serving thread (eth_getBalance, …, at the canonical head). */
  readonly flatState: FlatStateReader
  /** Canonical transactions' and receipts' JSON kept by hash on this thread (eth_getTransactionByHash, eth_getTransactionReceipt). */
  readonly txReplies: TxReplies
  /** eth_maxPriorityFeePerGas's oracle state. */
  readonly fees: FeeOracle
  /** Dev mode's block maker (evm_* methods); undefined without dev mode. */
  readonly dev?: DevDriver
  /**
   * Bounds of the EVM-backed reads (--rpc.gascap, --rpc.evmtimeout), of log queries (--rpc.logs.*) and of one
   * call's reply (--rpc.max-response-size: a query stops building a reply that passes it).
   */
  readonly limits: Readonly<{ gasCap: bigint; evmTimeoutMs: number; logsMaxRange: number; logsMaxResults: number; maxReplyBytes: number }>
  /** The polling filters (eth_newFilter, …). */
  readonly filters: FilterRegistry
  /** The WebSocket connection a request came on (eth_subscribe); undefined over HTTP. */
  readonly connection?: SubscriberConnection
  /**
   * What holds the polling filters a request installs, which go when it closes: the WebSocket connection it came on
   * (on the main thread, a stand-in for a serving thread's connection); undefined over HTTP.
   */
  readonly filterHolder?: object
  /**
   * Who is asking, as far as the transport can tell: the key of the client's shares of what clients hold on the node
   * (polling filters, the lane). The remote address, over HTTP and WebSocket alike; set for the
   * methods that run as the client's (methodTable's RunsIn), undefined for the others and for in-process callers.
   */
  readonly client?: string
  /** engine_exchangeCapabilities' answer: the engine methods of the method table, except itself. */
  readonly engineMethods: readonly string[]
}

/**
 * One of the node's writing parts, which a reader lacks. A reader's method table serves no method that needs one
 * (rpc/methods/readerTable.ts), so this answers -32601 only if that table were wrong.
 */
export function nodePart<T>(part: T | undefined): T {
  if (part === undefined) throw new RpcError(ErrorCode.methodNotFound, 'not available on a read-only reader')
  return part
}
