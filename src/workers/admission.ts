/**
 * What a lane's admission counts (WorkerPool.admits): the calls admitted and not yet answered, in all and by
 * client. Each lane keeps its own (LocalAdmission), or the lanes of every serving thread share one in shared memory
 * (SharedAdmission), so that `--rpc.maxqueue` bounds them together and a client whose connections land on n threads
 * is still admitted one share, not n.
 */
export interface Admission {
  /** Calls held, all clients together. */
  readonly total: number
  /** Clients holding at least one call. */
  readonly clients: number
  /** Calls `client` holds. */
  heldBy(client: string): number
  take(client: string): void
  release(client: string): void
}

export class LocalAdmission implements Admission {
  private readonly held = new Map<string, number>()
  total = 0

  get clients(): number {
    return this.held.size
  }

  heldBy(client: string): number {
    return this.held.get(client) ?? 0
  }

  take(client: string): void {
    this.total++
    this.held.set(client, (this.held.get(client) ?? 0) + 1)
  }

  release(client: string): void {
    this.total--
    const held = this.held.get(client)!
    if (held === 1) this.held.delete(client)
    else this.held.set(client, held - 1)
  }
}

/** Slots of the shared table: clients hashing to one slot are counted as one (they share a share). */
const SLOTS = 4096
const TOTAL = 0
const CLIENTS = 1
const FIRST_SLOT = 2

export class SharedAdmission implements Admission {
  private readonly counts: Int32Array

  constructor(shared: SharedArrayBuffer) {
    this.counts = new Int32Array(shared)
  }

  static shared(): SharedArrayBuffer {
    return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * (FIRST_SLOT + SLOTS))
  }

  get total(): number {
    return Atomics.load(this.counts, TOTAL)
  }

  get clients(): number {
    return Atomics.load(this.counts, CLIENTS)
  }

  heldBy(client: string): number {
    return Atomics.load(this.counts, slotOf(client))
  }

  take(client: string): void {
    Atomics.add(this.counts, TOTAL, 1)
    if (Atomics.add(this.counts, slotOf(client), 1) === 0) Atomics.add(this.counts, CLIENTS, 1)
  }

  release(client: string): void {
    Atomics.sub(this.counts, TOTAL, 1)
    if (Atomics.sub(this.counts, slotOf(client), 1) === 1) Atomics.sub(this.counts, CLIENTS, 1)
  }
}

/** FNV-1a of the key's UTF-16 units, to a slot. */
function slotOf(client: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < client.length; i++) h = Math.imul(h ^ client.charCodeAt(i), 0x01000193)
  return FIRST_SLOT + ((h >>> 0) % SLOTS)
}
