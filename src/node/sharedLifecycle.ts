import type { Lifecycle } from '../rpc/health.js'

const STATES: readonly Lifecycle[] = ['starting', 'serving', 'draining']

/** How often the main thread says it moves, ms. */
const BEAT_MS = 1000

/**
 * The node's lifecycle as its serving threads' /health reports it: starting until startNode returns (the Engine API
 * and the rest started), serving, draining from close() on; and the main thread's beat. The main thread sets them;
 * threads read them. A thread can answer reads while the main thread is frozen or held by one task, but then nothing
 * it forwards (sends, filters, the Engine API's blocks) moves: the beat lets its /health say so.
 */
export class SharedLifecycle {
  private readonly state: Int32Array
  /** Date.now() of the main thread's last beat; 0 before the first. */
  private readonly beatAt: BigInt64Array

  constructor(shared: SharedArrayBuffer) {
    this.state = new Int32Array(shared, 0, 1)
    this.beatAt = new BigInt64Array(shared, 8, 1)
  }

  static shared(): SharedArrayBuffer {
    return new SharedArrayBuffer(16)
  }

  get(): Lifecycle {
    return STATES[Atomics.load(this.state, 0)]!
  }

  set(to: Lifecycle): void {
    Atomics.store(this.state, 0, STATES.indexOf(to))
  }

  /** On the main thread: beat now and every second until the returned stop (the timer keeps no process alive). */
  beat(now: () => number = Date.now): () => void {
    const once = () => Atomics.store(this.beatAt, 0, BigInt(now()))
    once()
    const timer = setInterval(once, BEAT_MS)
    timer.unref()
    return () => clearInterval(timer)
  }

  /** Ms since the main thread's last beat (0 before any: a thread started before its beat is not judged). */
  quietFor(now = Date.now()): number {
    const at = Number(Atomics.load(this.beatAt, 0))
    return at === 0 ? 0 : Math.max(0, now - at)
  }
}
