import type { NativeCallGuard } from '../crypto/nativeCalls.js'

// What each worker of a lane is running against a deadline, shared with the serving thread: a worker writes the
// deadline of the call it starts and clears it when the call ends; the lane's watchdog stops a worker whose call is
// past it. Slot i is the thread id at ids[i], its call's deadline (Date.now() milliseconds, 0: none) at deadlines[i],
// and at states[i] whether the thread may be stopped now (it is never stopped inside a native call: nativeCalls.ts).
// Aligned 8-byte stores and loads of a double are whole on the platforms Node runs on.

const SLOTS = 64

/** Running JavaScript: may be stopped. */
const FREE = 0
/** Inside a native call. */
const NATIVE = 1
/** Inside a native call, asked to stop: it halts when the call returns. */
const ASKED = 2
/** Out of the native call it was asked to stop in; enters no other. */
const HALTED = 3
/** Being stopped by the watchdog. */
const STOPPING = 4

interface DeadlineBoard {
  ids: Int32Array
  states: Int32Array
  deadlines: Float64Array
}

export function createDeadlineBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * 4 * 2 + SLOTS * 8)
}

function board(buffer: SharedArrayBuffer): DeadlineBoard {
  return {
    ids: new Int32Array(buffer, 0, SLOTS),
    states: new Int32Array(buffer, SLOTS * 4, SLOTS),
    deadlines: new Float64Array(buffer, SLOTS * 8, SLOTS),
  }
}

/** The worker is being stopped: it runs no more native calls. */
export class WorkerStoppingError extends Error {
  override readonly name = 'WorkerStoppingError'
}

/** A worker's side: the slot it claimed (none when all are taken: its calls are then only checked before they start). */
export class WorkerDeadline implements NativeCallGuard {
  private readonly b: DeadlineBoard
  private readonly slot: number

  constructor(
    buffer: SharedArrayBuffer,
    private readonly threadId: number,
  ) {
    this.b = board(buffer)
    let slot = -1
    for (let i = 0; i < SLOTS && slot < 0; i++) if (Atomics.compareExchange(this.b.ids, i, 0, threadId) === 0) slot = i
    this.slot = slot
    if (slot >= 0) this.b.deadlines[slot] = 0
  }

  /** The call this worker starts must end by `deadline` (0: it has none, or the call ended). */
  running(deadline: number): void {
    if (this.slot < 0 || Atomics.load(this.b.ids, this.slot) !== this.threadId) return
    this.b.deadlines[this.slot] = deadline
    // A call that halted on its way out of a native call and ended before the watchdog stopped the thread: the
    // thread goes on (unless the watchdog wins this exchange and stops it).
    if (deadline === 0) Atomics.compareExchange(this.b.states, this.slot, HALTED, FREE)
  }

  enter(): void {
    if (this.slot < 0) return
    if (Atomics.compareExchange(this.b.states, this.slot, FREE, NATIVE) !== FREE) throw new WorkerStoppingError('worker is being stopped')
  }

  leave(): void {
    if (this.slot < 0) return
    if (Atomics.compareExchange(this.b.states, this.slot, NATIVE, FREE) === ASKED) Atomics.store(this.b.states, this.slot, HALTED)
  }
}

/**
 * The serving thread's side: the threads to stop now — running a call past its deadline outside native code, or
 * back from the native call they were asked to stop in. One inside a native call is asked to halt when it returns,
 * and stopped on a later look. A slot is given back when its thread is gone.
 */
export function threadsToStop(buffer: SharedArrayBuffer, now: number, live: ReadonlySet<number>): number[] {
  const b = board(buffer)
  const stop: number[] = []
  for (let i = 0; i < SLOTS; i++) {
    const id = Atomics.load(b.ids, i)
    if (id === 0) continue
    if (!live.has(id)) {
      b.deadlines[i] = 0
      Atomics.store(b.states, i, FREE)
      Atomics.store(b.ids, i, 0)
      continue
    }
    const deadline = b.deadlines[i]!
    const overdue = deadline !== 0 && now >= deadline
    const was = Atomics.load(b.states, i)
    if (was === HALTED || (overdue && was === FREE)) {
      // A worker that moved in or out of a native call meanwhile is looked at again on the next look.
      if (Atomics.compareExchange(b.states, i, was, STOPPING) === was) stop.push(id)
    } else if (overdue && was === NATIVE) {
      Atomics.compareExchange(b.states, i, NATIVE, ASKED)
    }
  }
  return stop
}
