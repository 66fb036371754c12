import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ChainSpec } from '../chain/spec.js'
import { FilterRegistry } from '../logs/filters.js'
import type { NodeContext } from '../rpc/context.js'
import { type HeadStamp, decideHealth, healthReply } from '../rpc/health.js'
import type { HttpServer } from '../rpc/httpServer.js'
import type { Namespace } from '../rpc/methodTable.js'
import { allMethods } from '../rpc/methods/index.js'
import { readerMethods, readerSyncing } from '../rpc/methods/readerTable.js'
import { Upstream } from '../rpc/upstream.js'
import { genesisBlock } from '../state/genesis.js'
import { ChainReader } from '../store/chainReader.js'
import { CHAIN_FILE, ChainStore } from '../store/chainStore.js'
import { datadirHeld } from '../store/datadirLock.js'
import { HeadWatcher } from '../store/headWatcher.js'
import { SubscriptionHub } from '../subscriptions/hub.js'
import type { Logger } from '../util/logger.js'
import { WorkerPool } from '../workers/pool.js'
import { NODE_DEFAULTS, READER_DEFAULTS } from './defaults.js'
import { drainWithin, headStamp, logInternalError, startEndpoint } from './endpoint.js'
import { NodeMetrics } from './metrics.js'
import { sharedContext } from './sharedContext.js'

// `sponge rpc`: a read-only JSON-RPC process over a running node's datadir, as Erigon's rpcdaemon over its node's
// database. It opens the store read-only (LMDB serves readers in other processes by design), learns each new head
// from the store (store/headWatcher.ts), forwards what only the node can do to --rpc.upstream
// (rpc/methods/readerTable.ts), and says on GET /health whether a balancer should send it traffic.

export interface ReaderOptions {
  datadir: string
  http: { host: string; port: number; apis: Namespace[]; vhosts?: string[]; corsOrigins?: string[] }
  /** The node transactions are forwarded to (its JSON-RPC URL); omitted, sends are refused with a clear error. */
  upstream?: string
  workers?: number
  maxQueue?: number
  maxBodyBytes?: number
  maxBatch?: number
  maxReplyBytes?: number
  maxBatchReplyBytes?: number
  gasCap?: bigint
  logsMaxRange?: number
  logsMaxResults?: number
  evmTimeoutMs?: number
  /** GET /health: stale once the head is older, seconds; 0 never (default NODE_DEFAULTS.healthMaxAge). */
  healthMaxAge?: number
  /** GET /health: stale once the head taken in is this many blocks behind the store's (default READER_DEFAULTS). */
  healthMaxLag?: number
  /** The dev chain's accounts: eth_accounts and local signing (their sends go to the node). */
  devAccounts?: { address: string; privateKey: string }[]
  metrics?: { host: string; port: number }
  log: Logger
  drainTimeoutMs?: number
}

export interface RunningReader {
  context: NodeContext
  store: ChainStore
  httpPort: number
  metricsPort: number | undefined
  close(): Promise<void>
}

/**
 * Opens the node's store read-only (waiting, and saying so, while there is none yet), starts the lane and the
 * endpoint. `signal` stops the wait.
 */
export async function startReader(spec: ChainSpec, opts: ReaderOptions, signal?: AbortSignal): Promise<RunningReader> {
  const store = await openWhenReady(opts.datadir, opts.log, signal)
  let genesisHash: Uint8Array
  try {
    // The store's genesis exists, so this only compares it with the spec's (and writes nothing).
    genesisHash = (await genesisBlock(spec, store)).hash()
  } catch (e) {
    await store.close()
    throw e
  }
  const maxReplyBytes = opts.maxReplyBytes ?? NODE_DEFAULTS.maxReplyBytes
  const lane = new WorkerPool(
    { datadir: opts.datadir, genesisJson: JSON.stringify(spec.genesis), readOnly: true },
    { name: 'public', threads: opts.workers ?? NODE_DEFAULTS.workers, maxInFlight: opts.maxQueue ?? NODE_DEFAULTS.maxQueue },
  )
  const chain = new ChainReader(store)
  const subscriptions = new SubscriptionHub(store)
  const watcher = new HeadWatcher(store, (c) => subscriptions.canonicalChanged(c.added, c.removed), {
    pollMs: READER_DEFAULTS.pollMs,
    onWatchError: (e) => opts.log.warn('no file events from the store; polling it alone', { error: e.message }),
  })
  watcher.start()
  const context: NodeContext = {
    ...sharedContext(spec, store, chain, opts),
    pool: lane,
    genesisHash,
    engineMethods: [],
    filters: new FilterRegistry(),
    ...(opts.upstream === undefined ? {} : { upstream: new Upstream(opts.upstream) }),
  }
  const table = readerMethods(allMethods(), { syncing: () => readerSyncing(chain.headNumber(), watcher.head.number) })
  const metrics = opts.metrics === undefined ? undefined : new NodeMetrics({ store, lanes: [lane] })
  // Whether the node still holds the datadir: a reader outliving it serves what is stored, and says it is stale.
  let nodeRunning = true
  const nodeCheck = setInterval(() => {
    datadirHeld(opts.datadir).then(
      (held) => {
        if (held === nodeRunning) return
        nodeRunning = held
        if (held) opts.log.info('the node is back: following its head')
        else opts.log.warn('the node has stopped: serving what is stored, /health says stale')
      },
      () => {},
    )
  }, READER_DEFAULTS.nodeCheckMs)
  nodeCheck.unref()
  let serving = false
  let closing: Promise<void> | undefined
  let lastHead: HeadStamp | undefined
  let lastLag = 0
  const healthMaxAge = opts.healthMaxAge ?? NODE_DEFAULTS.healthMaxAge
  const healthMaxLag = opts.healthMaxLag ?? READER_DEFAULTS.healthMaxLag
  const health = (draining: boolean) => {
    const lifecycle = draining || closing !== undefined ? 'draining' : serving ? 'serving' : 'starting'
    if (lifecycle !== 'draining') {
      lastHead = headStamp(chain, store)
      lastLag = Math.max(0, Number(chain.headNumber() - watcher.head.number))
    }
    return healthReply(
      decideHealth({
        lifecycle,
        head: lastHead,
        nowSeconds: Date.now() / 1000,
        maxAgeSeconds: healthMaxAge,
        lag: { blocks: lastLag, max: healthMaxLag },
        nodeStopped: !nodeRunning,
      }),
    )
  }
  let server: HttpServer | undefined
  let metricsServer: Server | undefined
  const close = () =>
    (closing ??= (async () => {
      watcher.stop()
      clearInterval(nodeCheck)
      if (server !== undefined) await drainWithin([server], opts.drainTimeoutMs ?? NODE_DEFAULTS.drainTimeoutMs, opts.log)
      await lane.close()
      metricsServer?.close()
      await store.close()
    })())
  try {
    server = await startEndpoint({
      host: opts.http.host,
      port: opts.http.port,
      namespaces: opts.http.apis.filter((n) => n !== 'testing'),
      vhosts: opts.http.vhosts ?? NODE_DEFAULTS.http.vhosts,
      corsOrigins: opts.http.corsOrigins ?? NODE_DEFAULTS.http.corsOrigins,
      maxBodyBytes: opts.maxBodyBytes ?? NODE_DEFAULTS.maxBodyBytes,
      table,
      envelope: {
        maxBatch: opts.maxBatch ?? NODE_DEFAULTS.maxBatch,
        maxReplyBytes,
        maxBatchReplyBytes: opts.maxBatchReplyBytes ?? NODE_DEFAULTS.maxBatchReplyBytes,
        onInternalError: logInternalError(opts.log),
        ...(metrics === undefined ? {} : { observe: (method: string, code: number, s: number) => metrics.observeCall(method, 'http', code, s) }),
      },
      ctx: context,
      lane,
      subscriptions,
      health,
    })
    opts.log.info(`read-only JSON-RPC on http://${opts.http.host}:${server.port}`, {
      datadir: opts.datadir,
      upstream: opts.upstream ?? 'none: sends are refused',
    })
    if (metrics !== undefined && opts.metrics !== undefined) {
      metricsServer = await metrics.serve(opts.metrics.host, opts.metrics.port)
      opts.log.info(`metrics on http://${opts.metrics.host}:${(metricsServer.address() as AddressInfo).port}/metrics`)
    }
    serving = true
    return {
      context,
      store,
      httpPort: server.port,
      metricsPort: metricsServer === undefined ? undefined : (metricsServer.address() as AddressInfo).port,
      close,
    }
  } catch (e) {
    await close()
    throw e
  }
}

/**
 * The node's store, opened read-only once it holds a chain. A reader started first waits (logging once): until the
 * node has created every database and stored its genesis, opening fails or finds no head.
 */
async function openWhenReady(datadir: string, log: Logger, signal?: AbortSignal): Promise<ChainStore> {
  let said = false
  for (;;) {
    signal?.throwIfAborted()
    if (existsSync(join(datadir, CHAIN_FILE))) {
      let store: ChainStore | undefined
      try {
        store = new ChainStore(datadir, true)
        if (store.getLabel('head') !== undefined) return store
      } catch {
        // Not every database is there yet.
      }
      await store?.close()
    }
    if (!said) {
      log.info('waiting for a node to store a chain in the datadir', { datadir })
      said = true
    }
    await new Promise<void>((resolve) => setTimeout(resolve, READER_DEFAULTS.waitMs))
  }
}
