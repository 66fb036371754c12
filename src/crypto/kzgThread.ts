import { Worker } from 'node:worker_threads'
import type { SidecarCheck, SidecarProofs } from './kzgSidecar.js'
import { kzgProofServiceGone, kzgProofServiceStarting } from './kzgProofService.js'

export type KzgRequest =
  | { stop: true }
  | { stop?: undefined; id: number; sidecar: SidecarProofs }
  | { stop?: undefined; id: number; cellProofsOf: Uint8Array[] }
export type KzgReply =
  | { ready: number }
  | { id: number; check: SidecarCheck }
  | { id: number; cellProofs: Uint8Array[] }
  | { id: number; failed: string }

/** What the thread is started with: the node's proof service (kzgProofService.ts), which it then answers. */
export interface KzgThreadData {
  proofService?: SharedArrayBuffer
}

// Resolves to dist/crypto/kzgWorker.js from both src/crypto (tests) and dist/crypto (the built node).
const WORKER_FILE = new URL('../../dist/crypto/kzgWorker.js', import.meta.url)

/**
 * A thread for the pool's KZG work: c-kzg's trusted setup takes seconds to load, once per thread. The node has two:
 * one checks sidecars as they are sent (milliseconds a blob; started with `sponge node`, else by the first blob
 * transaction), the other gives version-0 sidecars their cell proofs in the background (~0.3 s a blob; started by
 * the first one), so that a send's check never waits behind a conversion. Each loads the setup once and stays: the
 * public lane's threads come and go (workers/pool.ts), and each would load it again. Each holds ~8-13 MiB (its
 * isolate and the setup). The first also verifies the point-evaluation precompile's proofs for every thread that runs
 * the EVM (kzgProofService.ts), so that none loads a setup of its own.
 */
export class KzgThread {
  /** `proofService`: the thread answers the node's other threads' KZG proofs (kzgProofService.ts) too. */
  constructor(private readonly proofService?: SharedArrayBuffer) {}

  private worker: Worker | undefined
  private nextId = 0
  private readonly waiting = new Map<number, { resolve: (r: KzgReply) => void; reject: (e: Error) => void }>()
  private loaded: (ms: number) => void = () => {}
  /** Resolves with the setup's load time, ms, once the thread has it. */
  readonly ready = new Promise<number>((resolve) => {
    this.loaded = resolve
  })

  /** Starts the thread now; it loads the setup in the background. */
  start(): void {
    if (this.worker !== undefined) return
    const data: KzgThreadData = this.proofService === undefined ? {} : { proofService: this.proofService }
    const worker = new Worker(WORKER_FILE, { workerData: data })
    if (this.proofService !== undefined) kzgProofServiceStarting(this.proofService)
    // The node's lifetime is its servers'; a thread left loading never keeps the process up.
    worker.unref()
    worker.on('message', (m: KzgReply) => {
      if ('ready' in m) return this.loaded(m.ready)
      const w = this.waiting.get(m.id)
      this.waiting.delete(m.id)
      w?.resolve(m)
    })
    const gone = (why: Error) => {
      if (this.worker !== worker) return
      // A thread that died without saying so: the other threads verify their proofs themselves until it is back.
      if (this.proofService !== undefined) kzgProofServiceGone(this.proofService)
      this.worker = undefined
      for (const w of this.waiting.values()) w.reject(why)
      this.waiting.clear()
    }
    worker.on('error', gone)
    worker.on('exit', (code) => gone(new Error(`the KZG thread exited (${code})`)))
    this.worker = worker
  }

  /** `checkSidecarProofs` (kzgSidecar.ts) on the thread; a thread gone since is started again. */
  async check(sidecar: SidecarProofs): Promise<SidecarCheck> {
    const reply = await this.call((id) => ({ id, sidecar }))
    if ('check' in reply) return reply.check
    throw new Error(`the KZG thread did not check the sidecar: ${'failed' in reply ? reply.failed : 'no answer'}`)
  }

  /** `blobCellProofs` (kzgSidecar.ts) on the thread. */
  async cellProofs(blobs: Uint8Array[]): Promise<Uint8Array[]> {
    const reply = await this.call((id) => ({ id, cellProofsOf: blobs }))
    if ('cellProofs' in reply) return reply.cellProofs
    throw new Error(`the KZG thread made no cell proofs: ${'failed' in reply ? reply.failed : 'no answer'}`)
  }

  private call(request: (id: number) => KzgRequest): Promise<KzgReply> {
    this.start()
    const id = ++this.nextId
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      this.worker!.postMessage(request(id))
    })
  }

  /**
   * Stops the thread once it is between calls (stopped inside a c-kzg call, or while loading, the process would
   * abort: nativeCalls.ts): it leaves on reading the request, after the checks queued before it.
   */
  async close(): Promise<void> {
    const worker = this.worker
    if (worker === undefined) return
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
    // Held until it is gone: a process that ended around a thread still loading the setup would abort.
    worker.ref()
    worker.postMessage({ stop: true } satisfies KzgRequest)
    await exited
  }
}
