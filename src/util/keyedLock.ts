/**
 * Mutual exclusion per key for async work, as geth's AddrLocker (internal/ethapi/addrlock.go) is for its wallet's
 * nonces: `run(key, work)` starts `work` once every earlier run under the same key has settled, fulfilled or not.
 * Keys with no run waiting or running are not kept, so the map holds only what is locked now.
 */
export class KeyedLock {
  /** Per key, a promise that settles when the last run queued under it has released the key (it never rejects). */
  private readonly tails = new Map<string, Promise<void>>()

  /** Keys held or waited for now (for tests: a failed run must leave none behind). */
  get size(): number {
    return this.tails.size
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key)
    let release!: () => void
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    const tail = before === undefined ? released : before.then(() => released)
    this.tails.set(key, tail)
    if (before !== undefined) await before
    try {
      return await work()
    } finally {
      release()
      // The last in line takes the key out; a later run chained behind this one keeps it.
      if (this.tails.get(key) === tail) this.tails.delete(key)
    }
  }
}
