// What each worker of a lane is running against a deadline, shared with the serving thread: a worker writes the
// deadline of the call it starts and clears it when the call ends; the lane's watchdog stops a worker whose call is
// past it. Slot i is the thread id at ids[i] and its call's deadline (Date.now() milliseconds, 0: none) at
// deadlines[i]. Aligned 8-byte stores and loads of a double are whole on the platforms Node runs on.

const SLOTS = 64

interface DeadlineBoard {
  ids: Int32Array
  deadlines: Float64Array
}

export function createDeadlineBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(SLOTS * 4 + SLOTS * 8)
}

function board(buffer: SharedArrayBuffer): DeadlineBoard {
  return { ids: new Int32Array(buffer, 0, SLOTS), deadlines: new Float64Array(buffer, SLOTS * 4, SLOTS) }
}

/** A worker's side: the slot it claimed (none when all are taken: its calls are then only checked before they start). */
export class WorkerDeadline {
  private readonly b: DeadlineBoard
  private readonly slot: number

  constructor(buffer: SharedArrayBuffer, private readonly threadId: number) {
    this.b = board(buffer)
    let slot = -1
    for (let i = 0; i < SLOTS && slot < 0; i++) if (Atomics.compareExchange(this.b.ids, i, 0, threadId) === 0) slot = i
    this.slot = slot
    if (slot >= 0) this.b.deadlines[slot] = 0
  }

  /** The call this worker starts must end by `deadline` (0: it has none). */
  running(deadline: number): void {
    if (this.slot >= 0 && Atomics.load(this.b.ids, this.slot) === this.threadId) this.b.deadlines[this.slot] = deadline
  }
}

/** The serving thread's side: the threads running a call past its deadline, each released from its slot. */
export function takeOverdue(buffer: SharedArrayBuffer, now: number, live: ReadonlySet<number>): number[] {
  const b = board(buffer)
  const overdue: number[] = []
  for (let i = 0; i < SLOTS; i++) {
    const id = Atomics.load(b.ids, i)
    if (id === 0) continue
    const deadline = b.deadlines[i]!
    if (deadline !== 0 && now >= deadline) overdue.push(id)
    // A thread stopped for being overdue, or gone for any other reason, gives its slot back.
    if ((deadline !== 0 && now >= deadline) || !live.has(id)) {
      b.deadlines[i] = 0
      Atomics.store(b.ids, i, 0)
    }
  }
  return overdue
}
