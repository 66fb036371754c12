import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ChainSpec } from '../chain/spec.js'
import { FilterRegistry } from '../logs/filters.js'
import type { NodeContext } from '../rpc/context.js'
import { type HeadStamp, decideHealth, healthReply } from '../rpc/health.js'
import type { Namespace } from '../rpc/methodTable.js'
import { allMethods } from '../rpc/methods/index.js'
import { readerMethods, readerSyncing } from '../rpc/methods/readerTable.js'
import { Upstream } from '../rpc/upstream.js'
import { genesisBlock } from '../state/genesis.js'
import { ChainReader } from '../store/chainReader.js'
import { CHAIN_FILE, ChainStore } from '../store/chainStore.js'
import { dataFileId, datadirContents } from '../store/dataFile.js'
import { datadirHeld } from '../store/datadirLock.js'
import { HeadWatcher } from '../store/headWatcher.js'
import { HeartbeatWatch } from '../store/heartbeat.js'
import { SubscriptionHub } from '../subscriptions/hub.js'
import type { Logger } from '../util/logger.js'
import { WorkerPool } from '../workers/pool.js'
import { NODE_DEFAULTS, READER_DEFAULTS } from './defaults.js'
import { servingTurns } from '../util/turns.js'
import { type Endpoint, type EndpointBackend, drainWithin, headStamp, logInternalError, startEndpoint } from './endpoint.js'
import { NodeMetrics } from './metrics.js'
import { sharedContext } from './sharedContext.js'
import { forwardedAnswers } from './forwardedAnswers.js'
import { HeadSequence } from './headSequence.js'
import { type ServingThreads, startServingThreads, threadSettings } from './servingThreads.js'
import { SharedLifecycle } from './sharedLifecycle.js'
import { SharedAdmission } from '../workers/admission.js'
import type { ForwardedCall } from '../rpc/portForwarder.js'
import type { EnvelopeOptions } from '../rpc/envelope.js'
import { bytesToHex } from '../util/hex.js'
import { KzgThread } from '../crypto/kzgThread.js'
import { type EvmThreadSettings, makeEvmThreadSettings, useEvmThreadSettings } from '../evm/threadSettings.js'

// `sponge rpc`: a read-only JSON-RPC process over a running node's datadir, as Erigon's rpcdaemon over its node's
// database. It opens the store read-only (LMDB serves readers in other processes by design), learns each new head
// from the store (store/headWatcher.ts), forwards what only the node can do to --rpc.upstream
// (rpc/methods/readerTable.ts), and says on GET /health whether a balancer should send it traffic.
//
// It never says more than it knows. Each second it checks that the datadir's data file is still the one it reads
// (a datadir removed and made again by a new node is reopened: a new store, lane, hub and head watcher behind the
// same port, whose WebSocket connections to the removed chain are closed), that the node still holds the datadir,
// that the node's heartbeat moves (store/heartbeat.ts: a frozen or wedged node keeps its lock, and an idle dev
// chain's head never moves), and, with an upstream, that the node answers a ping; while any of these fails, /health
// is stale and says why, and the log says so once.

export interface ReaderOptions {
  datadir: string
  /**
   * The reader's KZG thread starts, and loads c-kzg's trusted setup, once the port serves: it verifies the
   * point-evaluation precompile's proofs for every thread of the reader, as the node's does (`sponge rpc` starts it,
   * but with --no-kzg-preload; without it each thread verifies in place, loading a setup of its own on first use).
   */
  kzgAtStart?: boolean
  /** As NodeOptions.precompileCache: false runs every precompile call. */
  precompileCache?: boolean
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
  /** How long to wait for a chain in a datadir no node holds, ms (default READER_DEFAULTS.storeWaitMs). */
  storeWaitMs?: number
  /** --http.threads: threads serving the port (1: the main thread serves it; more: servingThreads.ts). */
  httpThreads?: number
}

export interface RunningReader {
  /** The context over the store read now (a replaced datadir's new store once reopened). */
  readonly context: NodeContext
  readonly store: ChainStore
  httpPort: number
  metricsPort: number | undefined
  close(): Promise<void>
}

/** A store opened read-only, its genesis checked, and the data file it was opened from. */
interface OpenedStore {
  store: ChainStore
  fileId: string
  genesisHash: Uint8Array
}

/** Why a reader is stale, by kind (what its log says once per change) and in words (what /health says). */
type ProblemKind = 'gone' | 'replaced' | 'otherChain' | 'stopped' | 'silent' | 'lifeless'
interface Problem {
  kind: ProblemKind
  reason: string
}

/**
 * Opens the node's store read-only (waiting, and saying so, while there is none yet), starts the lane and the
 * endpoint. `signal` stops the wait.
 */
export async function startReader(spec: ChainSpec, opts: ReaderOptions, signal?: AbortSignal): Promise<RunningReader> {
  const opened = await openWhenReady(spec, opts, signal)
  const reader = new Reader(spec, opts)
  try {
    await reader.start(opened)
  } catch (e) {
    await reader.close()
    throw e
  }
  return reader
}

/** Everything made over one store: replaced whole, behind the same port, when the datadir is. */
interface Generation extends EndpointBackend {
  store: ChainStore
  fileId: string
  chain: ChainReader
  watcher: HeadWatcher
  subscriptions: SubscriptionHub
  close(): Promise<void>
}

class Reader implements RunningReader {
  private gen: Generation | undefined
  private endpoint: Endpoint | undefined
  private metricsServer: Server | undefined
  /** The lanes the metrics read: the current generation's. */
  private readonly metricLanes: WorkerPool[] = []
  private readonly metrics: NodeMetrics | undefined
  /** A replaced datadir's data file that holds another chain: not opened again. */
  private rejectedFile: string | undefined
  /** What the datadir's data file says, when it is not the one read (a problem of its own). */
  private fileProblem: Problem | undefined
  private nodeRunning = true
  private readonly heartbeat: HeartbeatWatch
  private lifeless: number | undefined
  private logged: ProblemKind | undefined
  private timer: NodeJS.Timeout | undefined
  private checking: Promise<void> | undefined
  private closing: Promise<void> | undefined
  private readonly upstream: Upstream | undefined
  private lastHead: HeadStamp | undefined
  private lastLag = 0
  /** With --http.threads above 1: the threads serving the port, and what they share with this thread. */
  private threads: ServingThreads | undefined
  private readonly shared:
    | { sequence: SharedArrayBuffer; admission: SharedArrayBuffer; lifecycle: SharedArrayBuffer; heads: HeadSequence; state: SharedLifecycle }
    | undefined
  /** The current generation's answers to what the threads hand on. */
  private answer: ((call: ForwardedCall, holder?: object) => Promise<string>) | undefined
  /** The KZG thread's proof service and --no-precompile-cache, for every thread of the reader that runs the EVM. */
  private readonly evmThread: EvmThreadSettings & { kzgProofs: SharedArrayBuffer }
  private readonly kzg: KzgThread

  constructor(
    private readonly spec: ChainSpec,
    private readonly opts: ReaderOptions,
  ) {
    this.upstream =
      opts.upstream === undefined
        ? undefined
        : new Upstream(opts.upstream, { callTimeoutMs: READER_DEFAULTS.forwardTimeoutMs, pingTimeoutMs: READER_DEFAULTS.pingTimeoutMs })
    this.heartbeat = new HeartbeatWatch(opts.datadir)
    this.evmThread = makeEvmThreadSettings(opts.precompileCache)
    this.kzg = new KzgThread(this.evmThread.kzgProofs)
    useEvmThreadSettings(this.evmThread)
    if (this.threadCount > 1) {
      const [sequence, lifecycle] = [HeadSequence.shared(), SharedLifecycle.shared()]
      this.shared = {
        sequence,
        lifecycle,
        admission: SharedAdmission.shared(),
        heads: new HeadSequence(sequence),
        state: new SharedLifecycle(lifecycle),
      }
    }
    this.metrics =
      opts.metrics === undefined
        ? undefined
        : new NodeMetrics({
            // What is read now, whichever store that is.
            store: { getLabel: (label) => this.current().store.getLabel(label), getNumber: (hash) => this.current().store.getNumber(hash) },
            lanes: this.metricLanes,
            calls: () => this.current().ctx.calls.counts,
          })
  }

  get context(): NodeContext {
    return this.current().ctx
  }

  get store(): ChainStore {
    return this.current().store
  }

  get httpPort(): number {
    if (this.threads !== undefined) return this.threads.port
    if (this.endpoint === undefined) throw new Error('the reader is not serving')
    return this.endpoint.port
  }

  /** --http.threads, or its default. */
  private get threadCount(): number {
    return this.opts.httpThreads ?? NODE_DEFAULTS.httpThreads
  }
  /** Stops this thread's beat, which the serving threads' /health watches (SharedLifecycle). */
  private stopBeat: (() => void) | undefined
  /** The threads serving the port, with --http.threads above 1. */
  get servingThreads(): ServingThreads | undefined {
    return this.threads
  }

  get metricsPort(): number | undefined {
    return this.metricsServer === undefined ? undefined : (this.metricsServer.address() as AddressInfo).port
  }

  async start(opened: OpenedStore): Promise<void> {
    const { opts } = this
    const gen = this.generation(opened)
    this.gen = gen
    const metrics = this.metrics
    if (this.shared !== undefined) {
      this.threads = await this.startThreads(opts.http.port)
      this.shared.state.set('serving')
      this.stopBeat = this.shared.state.beat()
      this.threads.readerHealth(this.lag(gen), undefined)
      metrics?.watchThreads({ taken: () => this.threads?.taken() ?? [], metrics: () => this.threads?.metrics() ?? Promise.resolve([]) })
    } else {
      this.endpoint = await startEndpoint({
        host: opts.http.host,
        port: opts.http.port,
        namespaces: this.namespaces(),
        vhosts: opts.http.vhosts ?? NODE_DEFAULTS.http.vhosts,
        corsOrigins: opts.http.corsOrigins ?? NODE_DEFAULTS.http.corsOrigins,
        maxBodyBytes: opts.maxBodyBytes ?? NODE_DEFAULTS.maxBodyBytes,
        table: gen.table,
        ctx: gen.ctx,
        lane: gen.lane,
        subscriptions: gen.subscriptions,
        envelope: this.envelope(),
        health: (draining) => this.health(draining),
      })
    }
    opts.log.info(`read-only JSON-RPC on http://${opts.http.host}:${this.httpPort}`, {
      datadir: opts.datadir,
      upstream: opts.upstream ?? 'none: sends are refused',
      threads: this.threadCount,
    })
    if (metrics !== undefined && opts.metrics !== undefined) {
      this.metricsServer = await metrics.serve(opts.metrics.host, opts.metrics.port)
      opts.log.info(`metrics on http://${opts.metrics.host}:${this.metricsPort}/metrics`)
    }
    if (opts.kzgAtStart === true) {
      this.kzg.start()
      void this.kzg.ready.then((ms) => opts.log.info('KZG trusted setup loaded', { ms: Math.round(ms) }))
    }
    this.schedule()
  }

  /** A reader serves no testing namespace. */
  private namespaces(): Namespace[] {
    return this.opts.http.apis.filter((n) => n !== 'testing')
  }

  private envelope(): Omit<EnvelopeOptions, 'namespaces'> {
    const { opts, metrics } = this
    return {
      maxBatch: opts.maxBatch ?? NODE_DEFAULTS.maxBatch,
      maxReplyBytes: opts.maxReplyBytes ?? NODE_DEFAULTS.maxReplyBytes,
      maxBatchReplyBytes: opts.maxBatchReplyBytes ?? NODE_DEFAULTS.maxBatchReplyBytes,
      onInternalError: logInternalError(opts.log),
      ...(metrics === undefined ? {} : { observe: (method: string, code: number, s: number) => metrics.observeCall(method, 'http', code, s) }),
      turns: servingTurns,
    }
  }

  /**
   * The threads serving the port (`port` 0: one chosen, then shared), over the datadir's store as it is now: each
   * opens it read-only, and hands what it cannot answer to this thread, which answers as the reader (forwarding
   * sends to the upstream).
   */
  private startThreads(port: number): Promise<ServingThreads> {
    const { opts, spec } = this
    const shared = this.shared!
    const threads = this.threadCount
    return startServingThreads({
      threads,
      headSequence: shared.sequence,
      admission: shared.admission,
      init: {
        ...threadSettings(opts, threads),
        // The port first chosen (a restart over a replaced datadir keeps it).
        port,
        readOnly: true,
        ...this.evmThread,
        settle: false,
        genesisJson: JSON.stringify(spec.genesis),
        genesisHash: bytesToHex(this.current().ctx.genesisHash),
        namespaces: this.namespaces(),
        healthMaxAge: opts.healthMaxAge ?? NODE_DEFAULTS.healthMaxAge,
        lifecycle: shared.lifecycle,
        metrics: this.metrics !== undefined,
      },
      answer: (call, holder) => this.answer!(call, holder),
      holderClosed: (holder) => this.gen?.ctx.filters.dropConnection(holder),
      drainBoundMs: opts.drainTimeoutMs ?? NODE_DEFAULTS.drainTimeoutMs,
      log: opts.log,
    })
  }

  /**
   * The datadir replaced: the threads, whose stores are the removed chain's, drain (their WebSocket connections closed:
   * subscribe again) and new ones open the new store, on the same port.
   */
  private async restartThreads(): Promise<void> {
    const old = this.threads!
    this.threads = undefined
    await old.drain()
    this.threads = await this.startThreads(old.port)
  }

  /** Blocks the head taken in is behind the store's, and the most that is still fresh. */
  private lag(gen: Generation): { blocks: number; max: number } {
    return {
      blocks: Math.max(0, Number(gen.chain.headNumber() - gen.watcher.head.number)),
      max: this.opts.healthMaxLag ?? READER_DEFAULTS.healthMaxLag,
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.timer)
      // A check may be reopening the datadir: the generation it makes is closed below.
      await this.checking
      this.shared?.state.set('draining')
      this.stopBeat?.()
      const served = this.threads ?? this.endpoint
      if (served !== undefined) await drainWithin([served], this.opts.drainTimeoutMs ?? NODE_DEFAULTS.drainTimeoutMs, this.opts.log)
      await Promise.all([this.gen?.close(), this.kzg.close()])
      this.metricsServer?.close()
    })()
    return this.closing
  }

  private current(): Generation {
    if (this.gen === undefined) throw new Error('the reader has no store open')
    return this.gen
  }

  /** GET /health: the head and lag of the store read now, stale with the reason while anything is wrong. */
  private health(draining: boolean): { ok: boolean; body: string } {
    const lifecycle = draining || this.closing !== undefined ? 'draining' : this.endpoint === undefined ? 'starting' : 'serving'
    const gen = this.gen
    if (lifecycle !== 'draining' && gen !== undefined) {
      this.lastHead = headStamp(gen.chain, gen.store)
      this.lastLag = this.lag(gen).blocks
    }
    const problem = this.problem()
    return healthReply(
      decideHealth({
        lifecycle,
        head: this.lastHead,
        nowSeconds: Date.now() / 1000,
        maxAgeSeconds: this.opts.healthMaxAge ?? NODE_DEFAULTS.healthMaxAge,
        lag: { blocks: this.lastLag, max: this.opts.healthMaxLag ?? READER_DEFAULTS.healthMaxLag },
        ...(problem === undefined ? {} : { problem: problem.reason }),
      }),
    )
  }

  /** Why the reader is stale now, if it is: the datadir first (nothing else matters then), the node, its answers. */
  private problem(): Problem | undefined {
    if (this.fileProblem !== undefined) return this.fileProblem
    if (!this.nodeRunning) return { kind: 'stopped', reason: 'the node holding the datadir has stopped: serving what is stored' }
    const silent = this.upstream?.problem
    if (silent !== undefined) return { kind: 'silent', reason: silent }
    if (this.lifeless !== undefined) {
      return {
        kind: 'lifeless',
        reason: `the node has shown no sign of life for ${Math.floor(this.lifeless / 1000)} s (frozen or wedged?): serving what is stored`,
      }
    }
    return undefined
  }

  /** The log's line when the problem changes kind: once when it starts, once when it is over. */
  private logProblem(): void {
    const p = this.problem()
    if (p?.kind === this.logged) return
    if (p !== undefined) this.opts.log.warn(`${p.reason}; /health says stale`)
    else if (this.logged === 'stopped') this.opts.log.info('the node is back: following its head')
    else if (this.logged === 'silent' || this.logged === 'lifeless') this.opts.log.info('the node answers again')
    else if (this.logged !== undefined) this.opts.log.info(`the datadir's ${CHAIN_FILE} is the one read again`)
    this.logged = p?.kind
  }

  /** The checks, each second after the last is done (a ping may take its whole bound). */
  private schedule(): void {
    this.timer = setTimeout(() => {
      this.checking = this.check()
        .catch((e: unknown) => this.opts.log.warn('checking on the node failed', { error: e instanceof Error ? e.message : String(e) }))
        .finally(() => {
          this.checking = undefined
          if (this.closing === undefined) this.schedule()
        })
    }, READER_DEFAULTS.nodeCheckMs)
  }

  private async check(): Promise<void> {
    const gen = this.gen
    if (gen === undefined || this.closing !== undefined) return
    const fileId = dataFileId(this.opts.datadir)
    if (fileId === gen.fileId) {
      this.fileProblem = undefined
    } else if (fileId === undefined) {
      this.fileProblem = { kind: 'gone', reason: `the datadir's ${CHAIN_FILE} is gone (the datadir removed?): serving the chain it held` }
    } else if (fileId !== this.rejectedFile) {
      await this.reopen(gen, fileId)
    }
    if (this.fileProblem === undefined) {
      // Only about the store read: the lock and heartbeat of a datadir made again are the new node's, not this chain's.
      this.nodeRunning = await datadirHeld(this.opts.datadir)
      const quiet = this.heartbeat.quietFor()
      this.lifeless = quiet !== undefined && quiet > READER_DEFAULTS.lifelessMs ? quiet : undefined
      await this.upstream?.ping()
    }
    this.logProblem()
    // The current generation's: a reopen above has made it.
    const now = this.gen
    if (this.threads !== undefined && now !== undefined) this.threads.readerHealth(this.lag(now), this.problem()?.reason)
  }

  /** A new data file at the datadir's path: once it holds the same chain, the reader serves it, on the same port. */
  private async reopen(old: Generation, fileId: string): Promise<void> {
    let opened: OpenedStore | undefined
    try {
      opened = await openStore(this.spec, this.opts.datadir)
    } catch (e) {
      // Another chain (its genesis differs): nothing this reader was started for is there.
      this.rejectedFile = fileId
      const why = e instanceof Error ? e.message : String(e)
      this.fileProblem = {
        kind: 'otherChain',
        reason: `the datadir was replaced by one that ${why.replace(/^datadir \S+ /, '')}: serving the removed chain`,
      }
      return
    }
    if (opened === undefined) {
      this.fileProblem = { kind: 'replaced', reason: "the datadir was replaced: waiting for the new node's chain, serving the removed one" }
      return
    }
    this.opts.log.warn(`the datadir was replaced (a new ${CHAIN_FILE}): serving its chain, closing subscriptions to the removed one`, {
      datadir: this.opts.datadir,
      head: Number(opened.store.getNumber(opened.store.getLabel('head')!)),
    })
    const next = this.generation(opened)
    this.gen = next
    // A fresh start: what was wrong was the old chain's.
    this.fileProblem = undefined
    this.rejectedFile = undefined
    this.nodeRunning = true
    this.logged = undefined
    const retired =
      this.threads !== undefined
        ? this.restartThreads()
        : (this.endpoint?.replace(next, 'the datadir was replaced: subscribe again') ?? Promise.resolve())
    // Requests already on the removed chain finish on it (bounded as a drain is), then its store and lane close.
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.opts.drainTimeoutMs ?? NODE_DEFAULTS.drainTimeoutMs)
    })
    await Promise.race([retired, late])
    clearTimeout(timer)
    await old.close()
  }

  /** The lane, the hub, the head watcher and the context over one store. */
  private generation(opened: OpenedStore): Generation {
    const { spec, opts } = this
    const { store } = opened
    const lane = new WorkerPool(
      { datadir: opts.datadir, genesisJson: JSON.stringify(spec.genesis), readOnly: true, ...this.evmThread },
      { name: 'public', threads: opts.workers ?? NODE_DEFAULTS.workers, maxInFlight: opts.maxQueue ?? NODE_DEFAULTS.maxQueue },
    )
    const chain = new ChainReader(store)
    const subscriptions = new SubscriptionHub(store)
    const watcher = new HeadWatcher(
      store,
      (c) => {
        subscriptions.canonicalChanged(c.added, c.removed)
        // The threads renew their snapshots and tell their own subscribers.
        this.shared?.heads.advance()
        this.threads?.canonicalChanged(c.added, c.removed)
      },
      {
        pollMs: READER_DEFAULTS.pollMs,
        onWatchError: (e) => opts.log.warn('no file events from the store; polling it alone', { error: e.message }),
      },
    )
    watcher.start()
    const ctx: NodeContext = {
      ...sharedContext(spec, store, chain, opts),
      pool: lane,
      genesisHash: opened.genesisHash,
      engineMethods: [],
      filters: new FilterRegistry(),
      ...(this.upstream === undefined ? {} : { upstream: this.upstream }),
    }
    const table = readerMethods(allMethods(), { syncing: () => readerSyncing(chain.headNumber(), watcher.head.number) })
    this.answer = forwardedAnswers(table, { ...this.envelope(), namespaces: new Set(this.namespaces()) }, ctx, lane)
    this.metricLanes.splice(0, this.metricLanes.length, lane)
    this.metrics?.watchLane(lane)
    return {
      store,
      fileId: opened.fileId,
      chain,
      watcher,
      subscriptions,
      table,
      ctx,
      lane,
      close: async () => {
        watcher.stop()
        await lane.close()
        await store.close()
      },
    }
  }
}

/**
 * The node's store, opened read-only once it holds a chain. A reader started first waits (logging once): until the
 * node has created every database and stored its genesis, opening fails or finds no head. A path that can never be
 * a datadir fails at once; a datadir with no chain that no node holds, after `storeWaitMs` (a node that holds it is
 * making its store: waited for as long as it holds it).
 */
async function openWhenReady(spec: ChainSpec, opts: ReaderOptions, signal?: AbortSignal): Promise<OpenedStore> {
  const { datadir, log } = opts
  const waitMs = opts.storeWaitMs ?? READER_DEFAULTS.storeWaitMs
  let deadline = performance.now() + waitMs
  let said = false
  for (;;) {
    signal?.throwIfAborted()
    if (datadirContents(datadir) === 'dataFile') {
      const opened = await openStore(spec, datadir)
      if (opened !== undefined) return opened
    }
    if (await datadirHeld(datadir)) deadline = performance.now() + waitMs
    else if (performance.now() >= deadline) {
      throw new Error(
        `no chain in datadir ${datadir} after ${waitMs / 1000} s: no node has stored one there, and none holds it (is it the node's --datadir?)`,
      )
    }
    if (!said) {
      log.info('waiting for a node to store a chain in the datadir', { datadir, seconds: waitMs / 1000 })
      said = true
    }
    await new Promise<void>((resolve) => setTimeout(resolve, READER_DEFAULTS.waitMs))
  }
}

/**
 * The datadir's store, read-only, when it holds a chain (undefined while the node has not created every database
 * and stored its genesis), and which data file it is. Throws when the chain is not the spec's.
 */
async function openStore(spec: ChainSpec, datadir: string): Promise<OpenedStore | undefined> {
  // Taken before opening: were the file replaced in between, the next check sees another and opens again.
  const fileId = dataFileId(datadir)
  if (fileId === undefined) return undefined
  let store: ChainStore
  try {
    store = new ChainStore(datadir, true)
  } catch {
    // Not every database is there yet.
    return undefined
  }
  try {
    if (store.getLabel('head') === undefined) {
      await store.close()
      return undefined
    }
    // The store's genesis exists, so this only compares it with the spec's (and writes nothing).
    return { store, fileId, genesisHash: (await genesisBlock(spec, store)).hash() }
  } catch (e) {
    await store.close()
    throw e
  }
}
