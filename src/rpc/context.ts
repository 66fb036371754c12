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
import type { ChainStore } from '../store/chainStore.js'
import type { WorkerPool } from '../workers/pool.js'

/** What method handlers may reach: the chain (read side), the pool, and the node's fixed facts. */
export interface NodeContext {
  spec: ChainSpec
  store: ChainStore
  chain: ChainReader
  /** The worker pool lane of the endpoint serving the request: public, or the engine's on the auth port. */
  pool: WorkerPool
  engine: EngineService
  builds: PayloadBuilds
  txs: TxSubmission
  txPool: TxPool
  genesisHash: Uint8Array
  clientVersion: string
  /** eth_accounts: the dev chain's funded accounts, none elsewhere. */
  devAccounts: string[]
  /** Their keys (public knowledge), by lowercase address: the dev wallet's (eth_sendTransaction, eth_sign). */
  devKeys: Map<string, string>
  /** State reads the flat table answers on the serving thread (eth_getBalance, …, at the last stored block). */
  flatState: FlatStateReader
  /** eth_maxPriorityFeePerGas's oracle state. */
  fees: FeeOracle
  /** Dev mode's block maker (evm_* methods); undefined without dev mode. */
  dev?: DevDriver
  /** Bounds of the EVM-backed reads (--rpc.gascap, --rpc.evmtimeout) and of log queries (--rpc.logs.*). */
  limits: { gasCap: bigint; evmTimeoutMs: number; logsMaxRange: number; logsMaxResults: number }
  /** The polling filters (eth_newFilter, …). */
  filters: FilterRegistry
  /** The WebSocket connection a request came on (eth_subscribe); undefined over HTTP. */
  connection?: SubscriberConnection
  /** engine_exchangeCapabilities' answer: the engine methods of the method table. */
  engineMethods: string[]
}
