import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// A small filesystem that tests can fill: a tmpfs mounted for the test. Mounting needs root (or CAP_SYS_ADMIN); a
// clean clone's CI may run without it, and then the tests that need one skip and say why.
//
// tmpfs rather than a loop-mounted ext4 image: LMDB (lmdb-js without useWritemap) writes pages with pwrite, so a full
// tmpfs fails the write with ENOSPC — or EIO on a short write — exactly as a full disk does, and root's reserved
// blocks (ext4 lets root write into them) cannot hide the full disk from a test that runs as root.

export interface SmallFs {
  readonly path: string
  /** Writes a file until the filesystem is full (ENOSPC), then returns it; bounded by the filesystem's size. */
  fill(): string
  unmount(): void
}

/** A tmpfs of `bytes` at a fresh directory, or the reason none can be mounted here. */
export function mountSmallFs(bytes: number): SmallFs | string {
  if (process.platform !== 'linux') return `tmpfs mounts need Linux, this is ${process.platform}`
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root'
  const path = mkdtempSync(join(tmpdir(), 'sponge-smallfs-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', path], { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (e) {
    rmdirSync(path)
    const stderr = (e as { stderr?: Buffer }).stderr?.toString().trim()
    return `cannot mount a tmpfs: ${stderr !== undefined && stderr !== '' ? stderr : (e as Error).message}`
  }
  let fillers = 0
  return {
    path,
    fill() {
      const file = join(path, `filler-${++fillers}`)
      const fd = openSync(file, 'w')
      try {
        // Large chunks, then page-sized ones for the last partial chunk: the loop ends at ENOSPC, at the latest
        // after the filesystem's size in chunks.
        for (const chunk of [Buffer.alloc(1024 * 1024, 1), Buffer.alloc(4096, 1)]) {
          for (let i = 0; i <= bytes / chunk.length; i++) {
            try {
              writeSync(fd, chunk)
            } catch (e) {
              if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break
              throw e
            }
          }
        }
      } finally {
        closeSync(fd)
      }
      return file
    },
    unmount() {
      try {
        execFileSync('umount', [path], { stdio: ['ignore', 'ignore', 'pipe'] })
      } catch {
        // Still in use (a failed test left a file open, a process is still exiting): detached now, freed when the
        // last user lets go, so that no mount outlives the test.
        execFileSync('umount', ['--lazy', path])
      }
      rmSync(path, { recursive: true, force: true })
    },
  }
}

/** Whether a tmpfs can be mounted here: mounts one and unmounts it; undefined if so, else the reason. */
export function smallFsUnavailable(): string | undefined {
  const fs = mountSmallFs(1024 * 1024)
  if (typeof fs === 'string') return fs
  fs.unmount()
  return undefined
}
