/**
 * Turns of the serving thread for public work cut into slices (a log query's blocks): each waiter resumes in a turn
 * of its own, one per pass of the event loop (setImmediate: after the loop has polled its sockets), in the order
 * they asked. What arrives meanwhile — an Engine API call above all, handled as soon as its bytes are read — runs
 * between two slices, never behind all of them; and one query's slices take turns with every other's.
 */
export class Turns {
  private readonly waiting: (() => void)[] = []
  private scheduled = false
  private held = 0
  /** Turns given since start (a test's and a bench's view of the work done here). */
  given = 0

  /** Waiters not yet given their turn. */
  get queued(): number {
    return this.waiting.length
  }

  /** Resolves at the start of a turn of the caller's own. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve)
      this.schedule()
    })
  }

  /**
   * No turn is given until as many `unhold`s: while an Engine API call is being answered, the work waiting here
   * leaves it the thread (and the cores) rather than share them.
   */
  hold(): void {
    this.held++
  }

  unhold(): void {
    if (--this.held === 0) this.schedule()
  }

  private schedule(): void {
    if (this.scheduled || this.held > 0 || this.waiting.length === 0) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      if (this.held > 0) return
      this.given++
      // The slice runs in the microtasks right after this callback; the next turn waits for the loop's next pass.
      this.waiting.shift()!()
      this.schedule()
    })
  }
}

/** The serving thread's turns: one thread serves both ports (the node's and a reader's public work takes them). */
export const servingTurns = new Turns()
