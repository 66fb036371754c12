import type { Lifecycle } from '../rpc/health.js'

const STATES: readonly Lifecycle[] = ['starting', 'serving', 'draining']

/**
 * The node's lifecycle as its serving threads' /health reports it: starting until startNode returns (the Engine API
 * and the rest started), serving, draining from close() on. The main thread sets it; threads read it.
 */
export class SharedLifecycle {
  private readonly state: Int32Array

  constructor(shared: SharedArrayBuffer) {
    this.state = new Int32Array(shared)
  }

  static shared(): SharedArrayBuffer {
    return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)
  }

  get(): Lifecycle {
    return STATES[Atomics.load(this.state, 0)]!
  }

  set(to: Lifecycle): void {
    Atomics.store(this.state, 0, STATES.indexOf(to))
  }
}
