import { closeSync, constants, ftruncateSync, openSync, writeSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { makeDirs } from '../util/makeDirs.js'

// One writer per datadir, as geth's flock on `<datadir>/LOCK` ("datadir already used by another process"). The lock
// is a lock on a file inside the datadir, held by the kernel for exactly as long as the process keeps the file open:
// a node killed with SIGKILL leaves nothing stale behind; another path to the same folder (a symlink) names the same
// file; network namespaces (containers on one volume) and users without access to the file change nothing. An
// abstract Unix socket did this before, but such a socket lives in a network namespace (a node in another container
// took the datadir too) and any local user could bind its name first.
//
// Node has no flock or fcntl: fs-native-extensions (prebuilt for each platform in its package, nothing to compile)
// gives byte-range locks, on Linux open-file-description locks (F_OFD_SETLK): owned by the open file, not the process,
// so two opens in one process conflict too, and released when its last descriptor closes (libuv opens every file
// close-on-exec, so no child process inherits it).
//
// Two bytes of LOCK are locked. WRITER_BYTE is the lock itself: a writer takes it exclusively or is refused at once.
// PROBE_BYTE answers a reader's "is the node still there?" (datadirHeld) without ever touching WRITER_BYTE: the
// reader takes a shared lock on PROBE_BYTE for an instant, which fails while a writer holds it exclusively. A writer
// that has won WRITER_BYTE then waits on PROBE_BYTE, for at most the instant of a probe in progress; so a probe can
// never make a starting node think the datadir is in use. The pid written into LOCK is for the operator only.

/** The datadir is held by another live process. */
export class DatadirLockedError extends Error {
  override readonly name = 'DatadirLockedError'
}

export interface DatadirLock {
  release(): Promise<void>
}

/** The lock file in the datadir, as geth's. */
export const LOCK_FILE = 'LOCK'
const WRITER_BYTE = 0
const PROBE_BYTE = 1
/**
 * Readable by the owner's group too, so that a reader running as another user of the group can probe; no one else
 * can open it, so no one else can hold a lock on it and keep the node from its datadir.
 */
const LOCK_FILE_MODE = 0o640

interface LockOptions {
  shared?: boolean
}
/** The part of fs-native-extensions used here: byte-range locks on a file descriptor. */
interface FileLocks {
  /** false when a conflicting lock is held (EAGAIN); throws on any other error. */
  tryLock(fd: number, offset: number, length: number, opts: LockOptions): boolean
  waitForLock(fd: number, offset: number, length: number, opts: LockOptions): Promise<void>
  unlock(fd: number, offset: number, length: number): void
}

let fileLocks: FileLocks | undefined
/** Loaded on first use: a platform without the native module fails the command that needs a lock, in one line. */
function locks(): FileLocks {
  fileLocks ??= createRequire(import.meta.url)('fs-native-extensions') as FileLocks
  return fileLocks
}

/** Takes the datadir's writer lock (creating the folder if needed), or throws DatadirLockedError at once. */
export async function lockDatadir(datadir: string): Promise<DatadirLock> {
  makeDirs(datadir)
  const fd = openSync(join(datadir, LOCK_FILE), constants.O_RDWR | constants.O_CREAT, LOCK_FILE_MODE)
  try {
    if (!locks().tryLock(fd, WRITER_BYTE, 1, {})) throw new DatadirLockedError(`datadir ${datadir} already used by another process`)
    await locks().waitForLock(fd, PROBE_BYTE, 1, {})
    ftruncateSync(fd)
    writeSync(fd, `${process.pid}\n`, 0)
  } catch (e) {
    closeSync(fd)
    throw e
  }
  let released = false
  return {
    release: async () => {
      // Once only: a second close could close whatever descriptor the number was given to since.
      if (released) return
      released = true
      // The last descriptor of the open file closes: the kernel drops both locks.
      closeSync(fd)
    },
  }
}

/**
 * Whether a live process holds the datadir's writer lock (a reader asks: is the node still there?): false when no
 * LOCK file is there (no node has run on it, or the datadir is gone) or no process holds it. A reader that may not
 * open LOCK (another user, outside its group) cannot tell, and is told true, as if the node were there.
 */
export function datadirHeld(datadir: string): Promise<boolean> {
  let fd: number
  try {
    fd = openSync(join(datadir, LOCK_FILE), constants.O_RDONLY)
  } catch (e) {
    return Promise.resolve((e as NodeJS.ErrnoException).code === 'EACCES')
  }
  try {
    if (!locks().tryLock(fd, PROBE_BYTE, 1, { shared: true })) return Promise.resolve(true)
    locks().unlock(fd, PROBE_BYTE, 1)
    return Promise.resolve(false)
  } catch (e) {
    return Promise.reject(e)
  } finally {
    closeSync(fd)
  }
}
