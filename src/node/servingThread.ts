import { parentPort, workerData } from 'node:worker_threads'
import type { GethGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { FilterRegistry } from '../logs/filters.js'
import type { NodeContext } from '../rpc/context.js'
import { decideHealth, healthReply } from '../rpc/health.js'
import { allMethods } from '../rpc/methods/index.js'
import { readerMethods } from '../rpc/methods/readerTable.js'
import { PortForwarder } from '../rpc/portForwarder.js'
import { ChainReader } from '../store/chainReader.js'
import { ChainStore } from '../store/chainStore.js'
import { SubscriberCounts, SubscriptionHub } from '../subscriptions/hub.js'
import { hexToBytes } from '../util/hex.js'
import { takeRole } from '../util/threadRole.js'
import { servingTurns } from '../util/turns.js'
import { WorkerPool } from '../workers/pool.js'
import { READER_DEFAULTS } from './defaults.js'
import { type Endpoint, headStamp, startEndpoint } from './endpoint.js'
import { HeadSequence } from './headSequence.js'
import { NodeMetrics } from './metrics.js'
import { settleWhenQuiet } from './settle.js'
import { SharedLifecycle } from './sharedLifecycle.js'
import { type FromServingThread, type ServingThreadInit, TAKEN_STRIDE, type ToServingThread } from './servingThreadInit.js'
import { sharedContext } from './sharedContext.js'
import { useEvmThreadSettings } from '../evm/threadSettings.js'

// A serving thread of the node's public port (servingThreads.ts): a reader inside the node. It answers what the
// store answers from its own LMDB snapshot and runs EVM work as the single serving thread does (on this thread under
// calls/threadCalls.ts's budget, else in its own public lane); what only the node can do goes to the main thread over
// a MessagePort and is answered with the node's reply.

/** Filters are the node's: a later poll may land on another thread. */
const FILTER_METHODS = [
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_newPendingTransactionFilter',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
]

/** How long a thread lets its public lane's workers idle before they stop, ms (the node's main lane's bound). */
const PUBLIC_WORKER_IDLE_MS = 60_000

const init = workerData as ServingThreadInit
// Before the store opens and the lane starts: its workers start at this thread's nice.
takeRole('serving thread', init.nice)
const port = parentPort!
const tell = (m: FromServingThread) => port.postMessage(m)

let endpoint: Endpoint | undefined
// An uncaught error would end the thread with its sockets open, and this uWS build then aborts the whole process:
// the thread closes them, says why, and ends; the main thread logs it.
process.on('uncaughtException', (e) => {
  tell({ op: 'failed', error: e.stack ?? e.message })
  endpoint?.closeAll()
  process.exit(1)
})

const spec = new ChainSpec(JSON.parse(init.genesisJson) as GethGenesisFile)
// Opened as the node's pool workers open it (the same LMDB environment of this process); this thread never writes.
const store = new ChainStore(init.datadir, init.readOnly)
const chain = new ChainReader(store)
useEvmThreadSettings(init)
const lane = new WorkerPool(
  {
    datadir: init.datadir,
    genesisJson: init.genesisJson,
    readOnly: init.readOnly,
    ...(init.kzgProofs === undefined ? {} : { kzgProofs: init.kzgProofs }),
    ...(init.noPrecompileCache === undefined ? {} : { noPrecompileCache: init.noPrecompileCache }),
  },
  {
    name: 'public',
    threads: init.workers,
    maxInFlight: init.maxQueue,
    idleMs: PUBLIC_WORKER_IDLE_MS,
    admission: init.admission,
    ...(init.nice === undefined ? {} : { nice: init.nice }),
  },
)
const forwarder = new PortForwarder(init.forward)
const subscriptions = new SubscriptionHub(store, { counts: new SubscriberCounts(init.subscribers), row: init.slot })
const ctx: NodeContext = {
  ...sharedContext(spec, store, chain, init.read),
  pool: lane,
  genesisHash: hexToBytes(init.genesisHash),
  engineMethods: [],
  filters: new FilterRegistry(),
  upstream: forwarder,
}
const table = readerMethods(allMethods(), {
  syncing: () => false,
  forwardAlso: { namespaces: ['testing'], methods: new Set([...FILTER_METHODS, 'eth_syncing']) },
})
const sequence = new HeadSequence(init.headSequence)
/**
 * The snapshot a pass's requests read is ended once the pass is over (a later read takes a fresh one), as lmdb-js's
 * zero timer would end it: a thread idle after its last request holds none while blocks are made, which would keep
 * every page freed since from reuse. Scheduled when a snapshot begins, not at every pass: a pass answered from what
 * the thread keeps (store/txReplies.ts, the flat state's replies) reads nothing and has none to end. The main
 * thread's message of each canonical change did it before, and now goes only to threads with subscribers
 * (SubscriberCounts).
 */
let releasing = false
const releaseSnapshot = (): void => {
  releasing = false
  store.refreshSnapshot()
}
// A head another thread may have answered is taken before any check against the snapshot is trusted again; a node's
// writer brackets its forkchoice writes in the count, which a reader's main thread learns of only after them.
store.pinSnapshots({
  keep: () => sequence.keep(store),
  ...(init.readOnly ? {} : { generation: () => sequence.stableCount() }),
  began: () => {
    if (!releasing) {
      releasing = true
      setImmediate(releaseSnapshot)
    }
  },
})
/** A reader's main thread's view of what is wrong, as it last said (ToServingThread 'health'). */
let readerHealth: { lag?: { blocks: number; max: number }; problem?: string } = {}
const lifecycle = new SharedLifecycle(init.lifecycle)
const metrics = init.metrics ? new NodeMetrics({ store, lanes: [lane], thread: true, calls: () => ctx.calls.counts }) : undefined
const taken = new Int32Array(init.taken)
const takenAt = init.slot * TAKEN_STRIDE

/**
 * The main thread frozen or held by one task (its beat stands still as long as a reader's node may before the reader
 * calls it lifeless): this thread still reads the store, but nothing it forwards is answered and no block moves.
 */
function mainThreadProblem(): string | undefined {
  const quiet = lifecycle.quietFor()
  if (quiet <= READER_DEFAULTS.lifelessMs) return undefined
  return `the ${init.readOnly ? "reader's" : "node's"} main thread has not moved for ${Math.round(quiet / 1000)} s`
}

endpoint = await startEndpoint({
  host: init.host,
  port: init.port,
  sharedPort: true,
  namespaces: init.namespaces,
  vhosts: init.vhosts,
  corsOrigins: init.corsOrigins,
  maxBodyBytes: init.maxBodyBytes,
  table,
  ctx,
  lane,
  subscriptions,
  envelope: {
    maxBatch: init.maxBatch,
    maxReplyBytes: init.maxReplyBytes,
    maxBatchReplyBytes: init.maxBatchReplyBytes,
    turns: servingTurns,
    // The Engine API is the main thread's: nothing here needs a pass's batches held back for it.
    queueArrivingBatches: false,
    ...(metrics === undefined ? {} : { observe: (method: string, code: number, s: number) => metrics.observeCall(method, 'http', code, s) }),
  },
  drainingElsewhere: () => lifecycle.get() === 'draining',
  connectionClosed: (connection) => forwarder.closed(connection),
  beforeRequest: () => {
    // This thread alone writes its count (a replacement takes it over once it is gone): no locked add is needed for
    // the main thread to read a count it wrote, and one was ~0.5% of the thread's CPU under single reads.
    taken[takenAt]!++
    sequence.keep(store)
  },
  health: (draining) => {
    const problem = readerHealth.problem ?? mainThreadProblem()
    return healthReply(
      decideHealth({
        lifecycle: draining ? 'draining' : lifecycle.get(),
        head: headStamp(chain, store),
        nowSeconds: Date.now() / 1000,
        maxAgeSeconds: init.healthMaxAge,
        ...(readerHealth.lag === undefined ? {} : { lag: readerHealth.lag }),
        ...(problem === undefined ? {} : { problem }),
      }),
    )
  },
})
tell({ op: 'listening', port: endpoint.port })
// Each thread's young generation stays at what start-up and load grew it to until a full collection (settle.ts).
const stopSettling = init.settle ? settleWhenQuiet(() => {}) : undefined

port.on('message', (m: ToServingThread) => {
  if (m.op === 'canonical') {
    // Posted after the commit and the sequence's advance: the fresh snapshot holds the blocks named.
    sequence.keep(store)
    subscriptions.canonicalChanged(m.added, m.removed)
    return
  }
  if (m.op === 'pending') {
    subscriptions.pendingTransaction(m.hash)
    return
  }
  if (m.op === 'health') {
    readerHealth = { lag: m.lag, ...(m.problem === undefined ? {} : { problem: m.problem }) }
    return
  }
  if (m.op === 'fail') {
    setImmediate(() => {
      throw new Error(m.reason)
    })
    return
  }
  if (m.op === 'metrics') {
    const id = m.id
    void (metrics?.registry.getMetricsAsJSON() ?? Promise.resolve([])).then((json) => tell({ op: 'metrics', id, json }))
    return
  }
  if (endpoint === undefined) return
  const served = endpoint
  void (async () => {
    stopSettling?.()
    let timer: NodeJS.Timeout | undefined
    await Promise.race([served.drain(), new Promise<void>((resolve) => (timer = setTimeout(resolve, m.boundMs)))])
    clearTimeout(timer)
    const unanswered = served.inFlight
    // Idle keep-alive connections: closed now, or the thread would wait for uWS to time them out.
    served.closeAll()
    await lane.close()
    await store.close()
    tell({ op: 'drained', unanswered })
    init.forward.close()
    port.close()
  })()
})
