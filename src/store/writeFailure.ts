import { statfsSync, writeSync } from 'node:fs'
import type { Logger } from '../util/logger.js'
import { StoreWriteError, type StoreWriteKind } from './errors.js'

// What a failed LMDB write means. Found by filling a small tmpfs under lmdb-js 3.5 (no useWritemap, so pages are
// written with pwrite, not through the map: a full filesystem fails the write instead of raising SIGBUS):
//  - a write that fails outright throws errno 28 (ENOSPC) with "No space left on device: Attempting to write page
//    at position …", after LMDB itself printed "Write error: No space left on device position …, size …" on stderr
//    with no newline;
//  - a write that comes up short (the disk filled during it) throws errno 5, "Input/output error": mdb.c sets EIO
//    there ("short write, filesystem full?"), so an EIO on a write is a full disk when statfs says the filesystem is
//    (nearly) full, and a real I/O error otherwise;
//  - the transaction is aborted whole: earlier commits stay readable, and writes succeed again once space is freed;
//  - a loop-mounted ext4 (mkfs -m 0: root may otherwise write into the reserved blocks) fails the same way, ENOSPC.
// With useWritemap, the same full tmpfs killed the process with SIGBUS instead: see ChainStore's open().

const ENOSPC = 28
const EDQUOT = 122
const EIO = 5
const MDB_MAP_FULL = -30792
/** Below this much free space, a short write (EIO) is taken for a full disk. */
const NEARLY_FULL_BYTES = 16 * 1024 * 1024

/** The StoreWriteError a failed write of `what` stands for, or undefined when it is not about space. */
export function storeWriteError(e: unknown, what: string, datadir: string): StoreWriteError | undefined {
  if (!(e instanceof Error)) return undefined
  if (e.message.includes('Attempting to write page')) {
    // LMDB's own stderr line has no newline: end it, so that the next log line stays a line of JSON.
    writeSync(2, '\n')
  }
  const code = (e as { code?: unknown }).code
  const failed = (kind: StoreWriteKind, reason: string) => new StoreWriteError(`${what}: ${reason}`, kind, { datadir, reason, cause: e.message })
  if (code === ENOSPC || code === 'ENOSPC' || (code === EIO && nearlyFull(datadir))) return failed('diskFull', 'no space left on device (ENOSPC)')
  if (code === EDQUOT || code === 'EDQUOT') return failed('diskFull', 'disk quota exceeded (EDQUOT)')
  if (code === MDB_MAP_FULL || e.message.includes('MDB_MAP_FULL')) return failed('mapFull', 'the database map is full (MDB_MAP_FULL)')
  return undefined
}

function nearlyFull(path: string): boolean {
  try {
    const s = statfsSync(path)
    return s.bavail * s.bsize < NEARLY_FULL_BYTES
  } catch {
    return false
  }
}

/**
 * The operator's side of failed writes, on the serving thread: the first failure of a run is logged at error level
 * with its cause named, those after it only at debug (a full disk fails every block until space is freed), and the
 * first write that succeeds after them at info.
 */
export class StoreWriteWatch {
  private failing: StoreWriteError | undefined

  constructor(private readonly log: Logger) {}

  failed(e: StoreWriteError): void {
    const fields = { datadir: e.data.datadir, write: e.message, lmdb: e.data.cause }
    if (this.failing === undefined) {
      this.log.error(`store writes failing, ${e.data.reason}: no block is stored until there is room; reads go on`, fields)
    } else {
      this.log.debug('store write failed again', fields)
    }
    this.failing = e
  }

  succeeded(): void {
    if (this.failing === undefined) return
    this.log.info('store writes succeed again', { datadir: this.failing.data.datadir })
    this.failing = undefined
  }
}
