import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDatadir } from '../testing/paths.js'
import { HEARTBEAT_FILE, HeartbeatWatch, startHeartbeat } from './heartbeat.js'

// Issue 31, item 4: a reader beside a frozen node said it was healthy. The reader's side is judged by its own clock,
// passed in here, so that no test waits on time.

describe('a node’s heartbeat', () => {
  it('as a reader sees it: still while the file does not change, by the reader’s clock; nothing said with no file', () => {
    const datadir = tempDatadir('heartbeat')
    try {
      const path = join(datadir, HEARTBEAT_FILE)
      const watch = new HeartbeatWatch(datadir)
      expect(watch.quietFor(0)).toBeUndefined()
      writeFileSync(path, '1\n')
      utimesSync(path, 1_000, 1_000)
      // Seen first: just now, whatever time the file says.
      expect(watch.quietFor(1_000)).toBe(0)
      expect(watch.quietFor(7_000)).toBe(6_000)
      utimesSync(path, 1_001, 1_001)
      expect(watch.quietFor(8_000)).toBe(0)
      expect(watch.quietFor(9_500)).toBe(1_500)
      rmSync(path)
      expect(watch.quietFor(10_000)).toBeUndefined()
    } finally {
      rmSync(datadir, { recursive: true, force: true })
    }
  })

  it('as the node keeps it: made at once, removed when stopped', async () => {
    const datadir = tempDatadir('heartbeat-node')
    try {
      const path = join(datadir, HEARTBEAT_FILE)
      const beat = startHeartbeat(datadir)
      // The first beat is written asynchronously.
      for (let i = 0; i < 500 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 10))
      expect(existsSync(path)).toBe(true)
      beat.stop()
      expect(existsSync(path)).toBe(false)
    } finally {
      rmSync(datadir, { recursive: true, force: true })
    }
  })
})
