import type { MessagePort } from 'node:worker_threads'
import type { Namespace } from '../rpc/methodTable.js'
import type { MetricsJson } from './metrics.js'
import type { ReadSettings } from './sharedContext.js'
import type { EvmThreadSettings } from '../evm/threadSettings.js'

/** What a serving thread (servingThread.ts) is started with: the endpoint's settings and its ways to the node. */
export interface ServingThreadInit extends EvmThreadSettings {
  datadir: string
  /** A reader's threads (`sponge rpc`): the store opened read-only, and /health as the reader's main thread says. */
  readOnly: boolean
  genesisJson: string
  /** The genesis hash, hex (net_version and eth_config read it; the main thread has computed it). */
  genesisHash: string
  host: string
  /** The shared port, chosen before any thread listens (sharedPort.ts). */
  port: number
  namespaces: Namespace[]
  vhosts: string[]
  corsOrigins: string[]
  maxBodyBytes: number
  maxBatch: number
  maxReplyBytes: number
  maxBatchReplyBytes: number
  read: ReadSettings
  /**
   * The nice the thread and its lane's workers run at (util/threadRole.ts): a node's, above its main thread's, so
   * that the Engine API's threads get a core first. Undefined (a reader's): the main thread's.
   */
  nice?: number
  /** The thread's own public lane: worker threads, and calls admitted at most (all lanes together). */
  workers: number
  maxQueue: number
  healthMaxAge: number
  /** The public lanes' admission counts (workers/admission.ts), shared with every thread's and the node's. */
  admission: SharedArrayBuffer
  /** SharedLifecycle's memory: the node's lifecycle, which the thread's /health reports. */
  lifecycle: SharedArrayBuffer
  /** Whether the node keeps metrics (--metrics): the thread counts its calls and sends them at each scrape. */
  metrics: boolean
  /** Collect this thread's garbage when it goes quiet (settle.ts), as `sponge node`'s main thread does. */
  settle: boolean
  /** HeadSequence's shared memory. */
  headSequence: SharedArrayBuffer
  /**
   * Requests each thread has taken, by slot, at `slot * TAKEN_STRIDE` (shared memory: tests and /metrics read it).
   */
  taken: SharedArrayBuffer
  /** This thread's slot in `taken`, and its row in `subscribers`. */
  slot: number
  /** SubscriberCounts' memory: the thread's subscriptions by kind, which the main thread looks at before telling it of an event. */
  subscribers: SharedArrayBuffer
  /** Where calls only the node can answer go (rpc/portForwarder.ts); transferred. */
  forward: MessagePort
}

/** What the main thread tells a serving thread. */
export type ToServingThread =
  | { op: 'drain'; boundMs: number }
  /** The canonical chain changed (committed, and the head sequence advanced): for the threads' subscribers, if any. */
  | { op: 'canonical'; added: Uint8Array[]; removed: Uint8Array[] }
  /** The pool admitted a transaction: for the threads' newPendingTransactions subscribers, if any. */
  | { op: 'pending'; hash: string }
  /** A scrape of /metrics: the thread answers with its registry's metrics. */
  | { op: 'metrics'; id: number }
  /** A reader's: its lag and what is wrong (the node stopped, the datadir replaced…), for the threads' /health. */
  | { op: 'health'; lag: { blocks: number; max: number }; problem: string | undefined }
  /** Throw, uncaught, as a bug in a handler would: how the tests see a thread fail and be replaced. */
  | { op: 'fail'; reason: string }

/** What a serving thread tells the main thread. */
export type FromServingThread =
  | { op: 'listening'; port: number }
  | { op: 'drained'; unanswered: number }
  | { op: 'failed'; error: string }
  | { op: 'metrics'; id: number; json: MetricsJson }

/**
 * Int32s between two threads' counts in `taken`: one cache line each. Counted on every request, adjacent counts made
 * every count a write to a line the other threads were writing too (Atomics.add was ~0.7% of a serving thread's CPU).
 */
export const TAKEN_STRIDE = 16
