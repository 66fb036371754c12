import { rmSync, statSync } from 'node:fs'
import { utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

// A node's sign of life that its readers (`sponge rpc`) see without asking it anything. The writer lock says only
// that the node's process exists: a node frozen (SIGSTOP) or wedged (its serving thread held) keeps it, and in dev
// mode with a block per transaction its head never moves, so neither says it has stopped. The node touches
// <datadir>/HEARTBEAT from its serving thread's event loop each HEARTBEAT_MS; a reader that sees the file unchanged
// for longer than its bound knows the node answers nothing, with or without --rpc.upstream to ping. The reader
// compares the file with what it saw before, by its own clock, never the file's time with its clock: a container's
// clock, a coarse filesystem time or a clock step change nothing.

export const HEARTBEAT_FILE = 'HEARTBEAT'

/** How often the node beats, ms. */
export const HEARTBEAT_MS = 1000

/**
 * The node's side: beats until stopped (its timer keeps no process alive). Stopping removes the file: a node stopped
 * cleanly leaves no heartbeat to be judged still, and its released lock says it has stopped.
 */
export function startHeartbeat(datadir: string): { stop(): void } {
  const path = join(datadir, HEARTBEAT_FILE)
  const body = `${process.pid}\n`
  const beat = () => {
    const now = new Date()
    // The first beat, or a file someone removed, is made again; a failure (a full or read-only disk) leaves readers
    // to the lock and their pings, which is what they had before: nothing to report on its own.
    utimes(path, now, now).catch(() => writeFile(path, body).catch(() => {}))
  }
  beat()
  const timer = setInterval(beat, HEARTBEAT_MS)
  timer.unref()
  return {
    stop: () => {
      clearInterval(timer)
      rmSync(path, { force: true })
    },
  }
}

/**
 * The reader's side: how long, by the reader's clock, the datadir's heartbeat has not changed. A datadir with no
 * heartbeat (a node that predates it, or none yet) says nothing.
 */
export class HeartbeatWatch {
  private seen: string | undefined
  private seenAt = 0

  constructor(private readonly datadir: string) {}

  /** Ms since the heartbeat last changed as seen from here (0 when it just did, or is seen first); undefined with none. */
  quietFor(now: number = performance.now()): number | undefined {
    let stamp: string | undefined
    try {
      const st = statSync(join(this.datadir, HEARTBEAT_FILE), { bigint: true, throwIfNoEntry: false })
      stamp = st === undefined ? undefined : `${st.ino}:${st.mtimeNs}`
    } catch {
      // Not readable from here: as good as none.
      stamp = undefined
    }
    if (stamp === undefined) {
      this.seen = undefined
      return undefined
    }
    if (stamp !== this.seen) {
      this.seen = stamp
      this.seenAt = now
    }
    return now - this.seenAt
  }
}
