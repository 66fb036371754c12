import { statSync, writeFileSync } from 'node:fs'
import { type Server, connect, createServer } from 'node:net'
import { join } from 'node:path'
import { makeDirs } from '../util/makeDirs.js'

// One writer per datadir, as geth's "datadir already used by another process". The lock is an abstract Unix socket
// named for the datadir's device and inode: the kernel holds it for exactly as long as the process lives, so a
// node killed with SIGKILL leaves nothing stale behind, and another path to the same folder (a symlink) names the
// same lock. Read-only readers of the datadir do not take it. A `LOCK` file in the datadir names the holder's pid,
// for the operator; it is informative only.

/** The datadir is held by another live process. */
export class DatadirLockedError extends Error {
  override readonly name = 'DatadirLockedError'
}

export interface DatadirLock {
  release(): Promise<void>
}

/** The lock's name: abstract (leading NUL), so it lives in the kernel and never in the filesystem. */
function lockName(datadir: string): string {
  const st = statSync(datadir)
  return `\0sponge-datadir-${st.dev}-${st.ino}`
}

/** Takes the datadir's writer lock (creating the folder if needed), or throws DatadirLockedError at once. */
export async function lockDatadir(datadir: string): Promise<DatadirLock> {
  makeDirs(datadir)
  if (process.platform !== 'linux') return { release: async () => {} }
  const server: Server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new DatadirLockedError(`datadir ${datadir} already used by another process`) : e),
    )
    server.listen({ path: lockName(datadir) }, resolve)
  })
  // The lock must not keep the process alive on its own.
  server.unref()
  writeFileSync(join(datadir, 'LOCK'), `${process.pid}\n`)
  return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/**
 * Whether a live process holds the datadir's writer lock (a reader asks: is the node still there?). A connection to
 * the lock's socket is accepted while its holder lives and refused once it is gone.
 */
export function datadirHeld(datadir: string): Promise<boolean> {
  if (process.platform !== 'linux') return Promise.resolve(true)
  let name: string
  try {
    name = lockName(datadir)
  } catch {
    return Promise.resolve(false)
  }
  return new Promise((resolve) => {
    const socket = connect({ path: name })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
