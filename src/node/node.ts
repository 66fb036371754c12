import { join } from 'node:path'
import { indexStoredLogs } from '../logs/backfill.js'
import { SubscriptionHub } from '../subscriptions/hub.js'
import { FilterRegistry } from '../logs/filters.js'
import type { ChainSpec } from '../chain/spec.js'
import { EngineService } from '../engine/engineService.js'
import { PayloadBuilds } from '../engine/payloadBuilds.js'
import { TxSubmission } from '../txpool/txSubmission.js'
import { checkJwt, loadOrCreateJwtSecret } from '../engine/jwt.js'
import { genesisBlock } from '../state/genesis.js'
import type { HttpServer } from '../rpc/httpServer.js'
import type { MethodTable, Namespace } from '../rpc/methodTable.js'
import { allMethods } from '../rpc/methods/index.js'
import { ChainReader } from '../store/chainReader.js'
import { ChainStore } from '../store/chainStore.js'
import { EvmConfig } from '../vm/evmConfig.js'
import { BlockExecutor } from '../exec/executor.js'
import { warmUpBlocks } from '../engine/worker/blockWarmUp.js'
import { type BuildInput, type BuiltPayload, type UnstoredBlock, buildPayload, buildUnstored } from '../engine/worker/payloadBuilder.js'
import { type KnownSigner, type ValidatedTx, validateRawTx } from '../txrules/txValidation.js'
import { checkChainFile } from '../store/chainFileCheck.js'
import { lockDatadir } from '../store/datadirLock.js'
import { startHeartbeat } from '../store/heartbeat.js'
import { TxPool } from '../txpool/txPool.js'
import { type Lanes, WorkerPool } from '../workers/pool.js'
import { SharedAdmission } from '../workers/admission.js'
import { drainWithin, headStamp, logInternalError, startEndpoint } from './endpoint.js'
import { servingTurns } from '../util/turns.js'
import { publicNice } from '../util/threadRole.js'
import { type ServingThreads, startServingThreads, threadSettings } from './servingThreads.js'
import { settleWhenQuiet } from './settle.js'
import { HeadSequence } from './headSequence.js'
import { SharedLifecycle } from './sharedLifecycle.js'
import { bytesToHex } from '../util/hex.js'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { NodeContext } from '../rpc/context.js'
import { NodeMetrics } from './metrics.js'
import { BLOCK_PHASES_BYTES } from '../util/blockPhases.js'
import type { Logger } from '../util/logger.js'
import { DevDriver, minesOnDemand } from '../dev/devDriver.js'
import { importFile } from '../import/importFile.js'
import { NODE_DEFAULTS } from './defaults.js'
import { sharedContext } from './sharedContext.js'
import { forwardedAnswers } from './forwardedAnswers.js'
import { KeyedLock } from '../util/keyedLock.js'
import { KzgThread } from '../crypto/kzgThread.js'
import { type HeadStamp, decideHealth, defaultHealthMaxAge, healthReply } from '../rpc/health.js'
import { makeEvmThreadSettings, useEvmThreadSettings } from '../evm/threadSettings.js'

/**
 * Dev mode with a block per transaction builds each block on the main thread, and a fresh node's first hundreds of
 * sends ran that path cold while V8 compiled it (the node's CPU 7.5–9.5 ms a send in bench:devSends' first round,
 * 3.0–5.0 warmed). So before it serves, the main thread builds and imports this many one-transfer blocks on a
 * throwaway chain (engine/worker/blockWarmUp.ts, as an engine worker does before the Engine API opens): ~1.2 s here;
 * --no-warmup skips it. 600 blocks measured no better.
 */
const DEV_WARM_UP_BLOCKS = 300

/** What startNode runs; an omitted setting takes its default from NODE_DEFAULTS (./defaults.ts). */
export interface NodeOptions {
  datadir: string
  importFile?: string
  http: { host: string; port: number; apis: Namespace[]; vhosts?: string[]; corsOrigins?: string[] }
  /**
   * --http.threads: threads serving the public port. 1: the main thread serves it, as it always has; more: that many
   * serving threads share it (servingThreads.ts) and hand what only the node can do to the main thread.
   */
  httpThreads?: number
  /** The authenticated Engine API endpoint; omitted, none is started. */
  authrpc?: { host: string; port: number; jwtSecretPath: string; vhosts?: string[] }
  /** Worker threads of the public lane (state reads, testing builds, transaction validation). */
  workers?: number
  /** Worker threads reserved for the Engine API (newPayload, payload builds, the auth port's reads). */
  engineWorkers?: number
  /** Public calls admitted to the pool and not yet answered, at most; past it, -32005 at once. */
  maxQueue?: number
  maxBodyBytes?: number
  maxBatch?: number
  /** The largest reply to one call, bytes (--rpc.max-response-size). */
  maxReplyBytes?: number
  /** A batch's reply, bytes (--rpc.batch-response-max-size). */
  maxBatchReplyBytes?: number
  minerGasLimit?: bigint
  txPoolSize?: number
  /** --rpc.gascap: the most gas eth_call and eth_estimateGas may use. */
  gasCap?: bigint
  /** --rpc.logs.maxrange: the most blocks one eth_getLogs range may span. */
  logsMaxRange?: number
  /** --rpc.logs.maxresults: the most logs one query may return. */
  logsMaxResults?: number
  /** --rpc.evmtimeout: an eth_call running longer is stopped and answered with an error. */
  evmTimeoutMs?: number
  /** --rpc.allow-unprotected-txs: take legacy transactions without EIP-155 replay protection over RPC. */
  allowUnprotectedTxs?: boolean
  /** --txpool.accountslots: most transactions one sender may pool. */
  txPoolAccountSlots?: number
  /**
   * Produce blocks without a consensus client: on each pending transaction, or every `period` seconds. `gapWaitMs`:
   * how long a send queued behind a nonce gap waits for it to be filled (DevDriver's GAP_WAIT_MS unless given).
   */
  dev?: { period?: number; gapWaitMs?: number }
  log: Logger
  showProgress: boolean
  /** The dev chain's funded accounts and their keys: eth_accounts and the dev wallet. */
  devAccounts?: { address: string; privateKey: string }[]
  /** Prometheus metrics on their own address; omitted, none are kept or served. */
  metrics?: { host: string; port: number }
  /** How long close() lets requests already received finish before it closes the pool and store anyway. */
  drainTimeoutMs?: number
  /**
   * --health.maxage: GET /health says stale once the head block is older, seconds; 0: never. Omitted: 60, or in
   * dev mode 0 with a block per transaction and at least two periods with --dev.period (rpc/health.ts).
   */
  healthMaxAge?: number
  /**
   * The KZG thread (crypto/kzgThread.ts) starts, and loads c-kzg's trusted setup, once the ports serve, so that the
   * first blob transaction does not wait seconds for it (`sponge node` does, but with --no-kzg-preload). Else on the
   * first blob transaction: in-process nodes and the tests' spawned ones mostly send none and save the seconds of CPU.
   */
  kzgAtStart?: boolean
  /**
   * Every thread that runs the EVM keeps the costly precompiles' successful results by fork and input
   * (evm/precompiles/cache.ts), as reth does; false: each call runs. Omitted: kept.
   */
  precompileCache?: boolean
  /**
   * The engine's workers build and import blocks of their own before the Engine API opens, so that a consensus
   * client's first payloads run on a compiled block path (engine/worker/blockWarmUp.ts: ~1 s of a worker's CPU); in
   * dev mode with a block per transaction, the main thread does before the node serves (DEV_WARM_UP_BLOCKS).
   * `sponge node` does; in-process nodes (tests, eest:blockchain's node per case) save the CPU.
   */
  warmUpBlocks?: boolean
  /**
   * Each thread collects its garbage when quiet (settle.ts): the main thread with the engine's workers, and each
   * serving thread; a thread's young generation otherwise stays at its start-up size (`sponge node` does: issue 29's
   * idle memory; tests need not).
   */
  settleWhenQuiet?: boolean
}

export interface RunningNode {
  context: NodeContext
  /** The Engine API's service (tests drive it directly). */
  engine: EngineService
  /** The worker lanes (tests watch what they admit). */
  lanes: Lanes
  /** The node's own store, writable: for tools and tests that inspect or prepare it (handlers get its read side). */
  store: ChainStore
  httpPort: number
  authPort: number | undefined
  devDriver: DevDriver | undefined
  metricsPort: number | undefined
  /** The serving threads of the public port, with --http.threads above 1. */
  servingThreads: ServingThreads | undefined
  /** Stops accepting, lets received requests finish (bounded), then closes the pool and the store. */
  close(): Promise<void>
}

const EXTRA_DATA = `0x${Buffer.from('sponge').toString('hex')}`

/**
 * How long a public worker stays without a task before it stops, ms: the public lane's threads start as calls need them,
 * so an idle node holds none (docs/performance.md, "Idle memory"); the engine's start with the node and stay.
 */
const PUBLIC_WORKER_IDLE_MS = 60_000

/** The namespaces of the authenticated endpoint: the engine, plus the eth reads a consensus client makes. */
const AUTH_NAMESPACES: readonly Namespace[] = ['engine', 'eth']

/** Opens the store (creating genesis), imports a chain file if given, starts the pool and the endpoints. */
export async function startNode(spec: ChainSpec, opts: NodeOptions): Promise<RunningNode> {
  const maxBatch = opts.maxBatch ?? NODE_DEFAULTS.maxBatch
  const maxBodyBytes = opts.maxBodyBytes ?? NODE_DEFAULTS.maxBodyBytes
  const maxReplyBytes = opts.maxReplyBytes ?? NODE_DEFAULTS.maxReplyBytes
  const maxBatchReplyBytes = opts.maxBatchReplyBytes ?? NODE_DEFAULTS.maxBatchReplyBytes
  // One writer per datadir: a second node (or `sponge import`) on it is refused before the store is touched.
  const lock = await lockDatadir(opts.datadir)
  try {
    // Before LMDB maps it: a damaged chain.mdb is an error naming the file, not a SIGSEGV or SIGBUS.
    checkChainFile(opts.datadir)
  } catch (e) {
    await lock.release()
    throw e
  }
  // Readers see it move while this process's event loop turns (the lock alone outlives a frozen node).
  const heartbeat = startHeartbeat(opts.datadir)
  // Dev mode's chain is a throwaway one, as anvil's and geth --dev's in memory: its commits are not flushed.
  const store = new ChainStore(opts.datadir, false, opts.dev === undefined)
  let genesis: Awaited<ReturnType<typeof genesisBlock>>
  try {
    genesis = await genesisBlock(spec, store)
    const backfilled = indexStoredLogs(store)
    if (backfilled > 0) opts.log.info('indexed the logs of blocks stored before the log index existed', { blocks: backfilled })
    if (opts.importFile !== undefined) await importFile(spec, store, opts.importFile, opts.showProgress, opts.log)
  } catch (e) {
    await store.close()
    heartbeat.stop()
    await lock.release()
    throw e
  }
  // One c-kzg trusted setup in the process: the KZG thread's. Every other thread that runs the EVM asks it to verify a
  // point evaluation's proof (crypto/kzgProofService.ts) instead of loading one of its own (~2.4 s) on first use.
  const evmThread = makeEvmThreadSettings(opts.precompileCache)
  useEvmThreadSettings(evmThread)
  const { kzgProofs } = evmThread
  const init = { datadir: opts.datadir, genesisJson: JSON.stringify(spec.genesis), ...evmThread }
  const threads = opts.httpThreads ?? NODE_DEFAULTS.httpThreads
  /** Each block's phases, added up by the engine's workers: kept only for the metrics. */
  const phases = opts.metrics === undefined ? undefined : new SharedArrayBuffer(BLOCK_PHASES_BYTES)
  // With serving threads, their public lanes and this one admit against one count: --rpc.maxqueue bounds them
  // together, and a client has one share whichever threads its connections land on.
  const admission = threads > 1 ? SharedAdmission.shared() : undefined
  // The serving threads and the public lanes' workers run at a higher nice than this thread (the Engine API, the
  // writer) and the engine's workers: under a public flood the engine's threads get a core first.
  const nice = publicNice()
  // Blocks of their own before any payload comes, where a consensus client sends payloads: the Engine API of a node
  // that is not in dev mode (dev blocks are mostly built on this thread, and their first ones need no hurry).
  const warmsBlocks = opts.warmUpBlocks === true && opts.authrpc !== undefined && opts.dev === undefined
  const lanes: Lanes = {
    engine: new WorkerPool(
      {
        ...init,
        executesBlocks: true,
        warmsBlocks: warmsBlocks,
        ...(phases === undefined ? {} : { blockPhases: phases }),
      },
      { name: 'engine', threads: opts.engineWorkers ?? NODE_DEFAULTS.engineWorkers },
    ),
    public: new WorkerPool(init, {
      name: 'public',
      threads: opts.workers ?? NODE_DEFAULTS.workers,
      maxInFlight: opts.maxQueue ?? NODE_DEFAULTS.maxQueue,
      idleMs: PUBLIC_WORKER_IDLE_MS,
      ...(admission === undefined ? {} : { admission }),
      ...(nice === undefined ? {} : { nice }),
    }),
  }
  const chain = new ChainReader(store)
  const txPool = new TxPool({
    maxSize: opts.txPoolSize ?? NODE_DEFAULTS.txPoolSize,
    priceBumpPercent: 10,
    accountSlots: opts.txPoolAccountSlots ?? NODE_DEFAULTS.txPoolAccountSlots,
  })
  const kzg = new KzgThread(kzgProofs)
  void kzg.ready.then((ms) => opts.log.info('KZG trusted setup loaded', { ms: Math.round(ms) }))
  // Started by the first version-0 sidecar after Osaka (txpool/txSubmission.ts convertLater).
  const kzgConversions = new KzgThread()
  // Dev mode validates sends and builds its blocks on this thread, on one EVM state reader.
  const devHere = opts.dev === undefined ? undefined : await devWork(spec, store)
  const txs = new TxSubmission(
    store,
    chain,
    txPool,
    lanes,
    opts.log,
    {
      allowUnprotectedTxs: opts.allowUnprotectedTxs ?? NODE_DEFAULTS.allowUnprotectedTxs,
      ...(devHere === undefined ? {} : { validateHere: devHere.validate, cellProofsWhenWanted: true }),
      cellProofsDue: () => spec.commonAfter(chain.headHeader()).isActivatedEIP(7594),
    },
    { check: kzg, convert: kzgConversions },
  )
  const builds = new PayloadBuilds(spec, store, chain, lanes, txPool, {
    gasLimitTarget: opts.minerGasLimit ?? NODE_DEFAULTS.minerGasLimit,
    extraData: EXTRA_DATA,
    // Where each send waits for its block; with --dev.period none does, and a block of a period's sends is built aside.
    ...(devHere === undefined || !minesOnDemand(opts.dev?.period) ? {} : { buildHere: devHere.build, buildUnstoredHere: devHere.buildUnstored }),
    ...(opts.dev === undefined ? {} : { bundleUnread: true }),
  })
  const engine = new EngineService(spec, store, chain, lanes.engine, builds, txs, txPool, opts.log, lanes.public)
  const filters = new FilterRegistry()
  const subscriptions = new SubscriptionHub(store)
  // The serving threads answer no head older than the one written: a send answered once its block is made finds its
  // receipt on any thread.
  const headSequence = threads > 1 ? HeadSequence.shared() : undefined
  const sequence = headSequence === undefined ? undefined : new HeadSequence(headSequence)
  let servingThreads: ServingThreads | undefined
  engine.onForkchoiceWriting = () => sequence?.beginWrite()
  engine.onForkchoiceWritten = () => sequence?.advance()
  engine.onCanonicalChange = (added, removed) => {
    subscriptions.canonicalChanged(added, removed)
    servingThreads?.canonicalChanged(added, removed)
  }
  txPool.onAdmitted((hash) => {
    filters.pendingTransaction(hash)
    subscriptions.pendingTransaction(hash)
    servingThreads?.pendingTransaction(hash)
  })
  // Dev mode's block maker and the method table exist before the context, which is whole before any endpoint serves.
  const devDriver =
    opts.dev === undefined ? undefined : new DevDriver(spec, store, chain, engine, txPool, opts.log, opts.dev.period, opts.dev.gapWaitMs)
  const table: MethodTable = allMethods()
  // Each endpoint's handlers reach the pool through their own lane.
  const context: NodeContext = {
    ...sharedContext(spec, store, chain, opts),
    pool: lanes.public,
    engine,
    builds,
    txs,
    txPool,
    nonceLock: new KeyedLock(),
    genesisHash: genesis.hash(),
    // common.md: engine_exchangeCapabilities MUST NOT list itself.
    engineMethods: [...table].filter(([name, def]) => def.namespace === 'engine' && name !== 'engine_exchangeCapabilities').map(([name]) => name),
    filters,
    ...(devDriver === undefined ? {} : { dev: devDriver }),
  }
  const metrics =
    opts.metrics === undefined
      ? undefined
      : new NodeMetrics({
          store,
          txPool,
          lanes: [lanes.engine, lanes.public],
          engine,
          calls: () => context.calls.counts,
          ...(phases === undefined ? {} : { blockPhases: phases }),
        })
  let metricsServer: Server | undefined
  const onInternalError = logInternalError(opts.log)
  const servers: HttpServer[] = []
  const envelope = {
    maxBatch,
    maxReplyBytes,
    maxBatchReplyBytes,
    onInternalError,
    ...(metrics === undefined ? {} : { observe: (method: string, code: number, s: number) => metrics.observeCall(method, 'http', code, s) }),
  }
  let closing: Promise<void> | undefined
  // GET /health on the JSON-RPC port: starting until startNode returns, draining from close() on (the store is
  // then no longer read: it closes meanwhile, and the head said is the last one read before).
  const healthMaxAge = opts.healthMaxAge ?? defaultHealthMaxAge(opts.dev, NODE_DEFAULTS.healthMaxAge)
  let serving = false
  // What the serving threads' /health reports as the node's lifecycle (this thread's is `serving` and `closing`).
  const lifecycleMemory = SharedLifecycle.shared()
  const lifecycle = new SharedLifecycle(lifecycleMemory)
  let stopBeat: (() => void) | undefined
  let stopSettling: (() => void) | undefined
  let lastHead: HeadStamp | undefined
  const readHead = () => headStamp(chain, store)
  const health = (draining: boolean) => {
    const lifecycle = draining || closing !== undefined ? 'draining' : serving ? 'serving' : 'starting'
    if (lifecycle !== 'draining') lastHead = readHead()
    return healthReply(decideHealth({ lifecycle, head: lastHead, nowSeconds: Date.now() / 1000, maxAgeSeconds: healthMaxAge }))
  }
  const close = () =>
    (closing ??= (async () => {
      lifecycle.set('draining')
      stopBeat?.()
      stopSettling?.()
      try {
        lastHead = readHead()
      } catch {
        // The head as last read.
      }
      devDriver?.stop()
      await drainWithin(servers, opts.drainTimeoutMs ?? NODE_DEFAULTS.drainTimeoutMs, opts.log)
      await devDriver?.idle()
      await Promise.all([lanes.engine.close(), lanes.public.close(), kzg.close(), kzgConversions.close()])
      metricsServer?.close()
      await store.close()
      heartbeat.stop()
      await lock.release()
    })())
  try {
    // The secret before any port opens: a path that cannot be written stops the start-up before it announces anything.
    const jwt = opts.authrpc === undefined ? undefined : loadOrCreateJwtSecret(opts.authrpc.jwtSecretPath)
    // Dev mode serves anvil's evm_* methods and the txpool namespace too.
    const apis: Namespace[] = opts.dev === undefined ? opts.http.apis : [...new Set([...opts.http.apis, 'evm' as const, 'txpool' as const])]
    if (headSequence !== undefined && admission !== undefined) {
      servingThreads = await startServingThreads({
        threads,
        headSequence,
        admission,
        init: {
          ...threadSettings(opts, threads),
          readOnly: false,
          genesisJson: init.genesisJson,
          ...evmThread,
          genesisHash: bytesToHex(genesis.hash()),
          namespaces: apis,
          healthMaxAge,
          lifecycle: lifecycleMemory,
          metrics: metrics !== undefined,
          settle: opts.settleWhenQuiet === true,
          ...(nice === undefined ? {} : { nice }),
        },
        answer: forwardedAnswers(table, { ...envelope, turns: servingTurns, namespaces: new Set(apis) }, context, lanes.public),
        holderClosed: (holder) => context.filters.dropConnection(holder),
        drainBoundMs: opts.drainTimeoutMs ?? NODE_DEFAULTS.drainTimeoutMs,
        log: opts.log,
      })
    }
    if (servingThreads !== undefined) metrics?.watchThreads(servingThreads)
    const http =
      servingThreads ??
      (await startEndpoint({
        host: opts.http.host,
        port: opts.http.port,
        namespaces: apis,
        vhosts: opts.http.vhosts ?? NODE_DEFAULTS.http.vhosts,
        corsOrigins: opts.http.corsOrigins ?? NODE_DEFAULTS.http.corsOrigins,
        maxBodyBytes,
        table,
        // Public work takes turns of the serving thread; the Engine API's (below) never waits for one.
        envelope: { ...envelope, turns: servingTurns },
        ctx: context,
        lane: lanes.public,
        subscriptions,
        health,
      }))
    servers.push(http)
    opts.log.info(`HTTP JSON-RPC on http://${opts.http.host}:${http.port}`, { apis: opts.http.apis.join(','), threads })
    let authPort: number | undefined
    if (opts.authrpc !== undefined && jwt !== undefined) {
      const { secret, created } = jwt
      if (created) opts.log.info('created JWT secret', { path: opts.authrpc.jwtSecretPath })
      const authContext: NodeContext = { ...context, pool: lanes.engine }
      // The Engine API opens once an engine worker has run its warm-up blocks (workers/worker.ts): a consensus
      // client's first payloads then run compiled, not ~3x slower while V8 compiles the block path.
      if (warmsBlocks) await lanes.engine.run({ op: 'ping' })
      const auth = await startEndpoint({
        host: opts.authrpc.host,
        port: opts.authrpc.port,
        namespaces: AUTH_NAMESPACES,
        vhosts: opts.authrpc.vhosts ?? NODE_DEFAULTS.authrpc.vhosts,
        corsOrigins: NODE_DEFAULTS.http.corsOrigins,
        maxBodyBytes,
        table,
        envelope: {
          ...envelope,
          ...(metrics === undefined ? {} : { observe: (method: string, code: number, s: number) => metrics.observeCall(method, 'auth', code, s) }),
        },
        ctx: authContext,
        lane: lanes.engine,
        authorize: (h) => checkJwt(h, secret) === undefined,
        // An engine call being answered (a payload executed, a block built) goes first: the public lane sends no
        // new task and the serving thread gives public work no turn until it is answered.
        answering: {
          begin: () => {
            lanes.public.hold()
            servingTurns.hold()
          },
          end: () => {
            lanes.public.unhold()
            servingTurns.unhold()
          },
        },
      })
      servers.push(auth)
      authPort = auth.port
      opts.log.info(`Engine API on http://${opts.authrpc.host}:${auth.port}`, { jwtSecret: opts.authrpc.jwtSecretPath })
    }
    if (opts.dev !== undefined) {
      opts.log.info(opts.dev.period === undefined ? 'dev mode: a block for every new transaction' : `dev mode: a block every ${opts.dev.period}s`)
    }
    if (metrics !== undefined && opts.metrics !== undefined) {
      metricsServer = await metrics.serve(opts.metrics.host, opts.metrics.port)
      opts.log.info(`metrics on http://${opts.metrics.host}:${portOf(metricsServer)}/metrics`)
    }
    if (opts.dev !== undefined && opts.dev.period === undefined && opts.warmUpBlocks === true) {
      const started = performance.now()
      const blocks = await warmUpBlocks(join(opts.datadir, 'warm-up-dev'), 0, DEV_WARM_UP_BLOCKS, 1)
      opts.log.info('dev mode: the block path warmed up', { blocks, ms: Math.round(performance.now() - started) })
    }
    serving = true
    lifecycle.set('serving')
    if (servingThreads !== undefined) stopBeat = lifecycle.beat()
    // Once the ports serve, so as not to slow the start-up: the setup's seconds of CPU run beside the first requests,
    // and a blob transaction that comes first waits in the thread's queue, not for a load of its own.
    if (opts.kzgAtStart === true) kzg.start()
    if (opts.settleWhenQuiet === true) stopSettling = settleWhenQuiet(() => settleEngineWorkers(lanes.engine, opts.log))
    return {
      context,
      engine,
      lanes,
      store,
      httpPort: http.port,
      authPort,
      devDriver,
      metricsPort: metricsServer === undefined ? undefined : portOf(metricsServer),
      servingThreads,
      close,
    }
  } catch (e) {
    await close()
    throw e
  }
}

/** A full collection in each of the engine's workers (they wait in Atomics.wait, where V8 collects nothing). */
function settleEngineWorkers(engine: WorkerPool, log: Logger): void {
  for (let i = 0; i < engine.threads; i++) {
    engine.run({ op: 'settle' }).catch((e: unknown) => log.debug('engine worker collection failed', { error: String(e) }))
  }
}

const portOf = (server: Server): number => (server.address() as AddressInfo).port

/**
 * Dev mode's work on this thread, over its own EVM state: validating a transaction (TxSubmissionOptions.validateHere)
 * and building a block (BuildOptions.buildHere) with a block executor of its own, whose warm state follows the
 * blocks built here (the engine worker's, for a newPayload, starts from the store when its parent is not its last).
 */
async function devWork(
  spec: ChainSpec,
  store: ChainStore,
): Promise<{
  validate: (raw: Uint8Array, headHash: Uint8Array, signer: KnownSigner | undefined) => Promise<ValidatedTx>
  build: (input: BuildInput) => Promise<BuiltPayload>
  buildUnstored: (input: BuildInput) => Promise<UnstoredBlock>
}> {
  const evm = new EvmConfig(spec, store)
  const executor = await BlockExecutor.create(spec, store, evm)
  return {
    validate: (raw, headHash, signer) => validateRawTx(spec, store, evm, raw, headHash, signer),
    build: async (input) => {
      // Out of the caller's synchronous run (forkchoiceUpdated, started from the pool's admission of a transaction).
      await Promise.resolve()
      return buildPayload(spec, store, executor, input)
    },
    buildUnstored: async (input) => {
      // Out of the caller's synchronous run, as build.
      await Promise.resolve()
      return buildUnstored(spec, store, executor, input)
    },
  }
}
