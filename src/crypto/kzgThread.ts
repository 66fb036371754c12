import { Worker } from 'node:worker_threads'
import type { SidecarCheck, SidecarProofs } from './kzgSidecar.js'

export type KzgRequest = { stop: true } | { stop?: undefined; id: number; sidecar: SidecarProofs; toCellProofs: boolean }
export type KzgReply = { ready: number } | { id: number; check: SidecarCheck }

// Resolves to dist/crypto/kzgWorker.js from both src/crypto (tests) and dist/crypto (the built node).
const WORKER_FILE = new URL('../../dist/crypto/kzgWorker.js', import.meta.url)

/**
 * One thread for the pool's KZG work (a blob transaction's sidecar checked, and given cell proofs): c-kzg's trusted
 * setup takes seconds to load, once per thread, and a blob's cell proofs ~0.5 s. Started with `sponge node` (else by
 * the first blob transaction), it loads the setup once and stays: the public lane's threads come and go
 * (workers/pool.ts), and each would load it again. It holds ~8-13 MiB (its isolate and the setup).
 */
export class KzgThread {
  private worker: Worker | undefined
  private nextId = 0
  private readonly waiting = new Map<number, { resolve: (c: SidecarCheck) => void; reject: (e: Error) => void }>()
  private loaded: (ms: number) => void = () => {}
  /** Resolves with the setup's load time, ms, once the thread has it. */
  readonly ready = new Promise<number>((resolve) => {
    this.loaded = resolve
  })

  /** Starts the thread now; it loads the setup in the background. */
  start(): void {
    if (this.worker !== undefined) return
    const worker = new Worker(WORKER_FILE)
    // The node's lifetime is its servers'; a thread left loading never keeps the process up.
    worker.unref()
    worker.on('message', (m: KzgReply) => {
      if ('ready' in m) return this.loaded(m.ready)
      const w = this.waiting.get(m.id)
      this.waiting.delete(m.id)
      w?.resolve(m.check)
    })
    const gone = (why: Error) => {
      if (this.worker !== worker) return
      this.worker = undefined
      for (const w of this.waiting.values()) w.reject(why)
      this.waiting.clear()
    }
    worker.on('error', gone)
    worker.on('exit', (code) => gone(new Error(`the KZG thread exited (${code})`)))
    this.worker = worker
  }

  /** `checkSidecarProofs` (kzgSidecar.ts) on the thread; a thread gone since is started again. */
  check(sidecar: SidecarProofs, toCellProofs: boolean): Promise<SidecarCheck> {
    this.start()
    const id = ++this.nextId
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      this.worker!.postMessage({ id, sidecar, toCellProofs } satisfies KzgRequest)
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
