import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDatadir } from '../testing/paths.js'
import { DatadirLockedError, datadirHeld, lockDatadir } from './datadirLock.js'

/** Whether this sandbox lets us make a network namespace (root, or user namespaces allowed). */
const canUnshare = spawnSync('unshare', ['-n', 'true']).status === 0

/**
 * A second process that takes the lock, says so on stdout, and holds it until killed; `inNewNetns`: started with
 * `unshare -n`, in a network namespace of its own, as a node in another container on the same volume is.
 */
function holder(datadir: string, inNewNetns = false) {
  const lockModule = new URL('../../dist/store/datadirLock.js', import.meta.url).href
  const command = inNewNetns ? 'unshare' : process.execPath
  const child = spawn(
    command,
    [
      ...(inNewNetns ? ['-n', process.execPath] : []),
      '--input-type=module',
      '-e',
      `const { lockDatadir } = await import(${JSON.stringify(lockModule)}); await lockDatadir(${JSON.stringify(datadir)}); process.stdout.write('locked\\n'); setInterval(() => {}, 1000)`,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve())
    child.once('exit', (code) => reject(new Error(`holder exited ${code}`)))
  })
  const killed = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGKILL')
    })
  return { locked, killed }
}

/** A second process that asks datadirHeld as fast as it can (a bounded number of times) until killed. */
function probing(datadir: string) {
  const lockModule = new URL('../../dist/store/datadirLock.js', import.meta.url).href
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { datadirHeld } = await import(${JSON.stringify(lockModule)}); process.stdout.write('probing\\n'); for (let i = 0; i < 10_000_000; i++) await datadirHeld(${JSON.stringify(datadir)})`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const started = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('probing') && resolve())
    child.once('exit', (code) => reject(new Error(`prober exited ${code}`)))
  })
  const killed = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGKILL')
    })
  return { started, killed }
}

describe('the datadir lock', () => {
  it('refuses a second process while the first lives, and is free again once it is killed (nothing stale)', async () => {
    const dir = tempDatadir('lock')
    const other = holder(dir)
    await other.locked
    await expect(lockDatadir(dir)).rejects.toThrow(DatadirLockedError)
    await expect(lockDatadir(dir)).rejects.toThrow(/already used by another process/)
    await other.killed()
    const mine = await lockDatadir(dir)
    await mine.release()
  })

  it('is one lock per folder, whatever path names it, and can be taken again after release', async () => {
    const dir = tempDatadir('lock-link')
    const real = join(dir, 'data')
    mkdirSync(real)
    symlinkSync(real, join(dir, 'link'))
    const first = await lockDatadir(real)
    await expect(lockDatadir(join(dir, 'link'))).rejects.toThrow(DatadirLockedError)
    await first.release()
    const again = await lockDatadir(join(dir, 'link'))
    await again.release()
  })

  // Issue 31, item 1: the lock was an abstract Unix socket, which belongs to a network namespace: a holder in another
  // namespace (another container on the same volume) did not hold it for this one.
  it.skipIf(!canUnshare)('is held against a process in another network namespace (unshare -n)', async () => {
    const dir = tempDatadir('lock-netns')
    const other = holder(dir, true)
    try {
      await other.locked
      await expect(lockDatadir(dir)).rejects.toThrow(/already used by another process/)
      expect(await datadirHeld(dir)).toBe(true)
    } finally {
      await other.killed()
    }
    expect(await datadirHeld(dir)).toBe(false)
    const mine = await lockDatadir(dir)
    await mine.release()
  })

  it('datadirHeld: true while a process holds the lock, false before, after release and after a SIGKILL', async () => {
    const dir = tempDatadir('lock-held')
    expect(await datadirHeld(dir)).toBe(false)
    const mine = await lockDatadir(dir)
    expect(await datadirHeld(dir)).toBe(true)
    await mine.release()
    expect(await datadirHeld(dir)).toBe(false)
    const other = holder(dir)
    await other.locked
    expect(await datadirHeld(dir)).toBe(true)
    await other.killed()
    expect(await datadirHeld(dir)).toBe(false)
    expect(await datadirHeld(join(dir, 'no-such-folder'))).toBe(false)
  })

  it("a reader's datadirHeld never keeps a writer from taking the lock, however they interleave", async () => {
    const dir = tempDatadir('lock-probe')
    const prober = probing(dir)
    try {
      await prober.started
      for (let i = 0; i < 300; i++) {
        const lock = await lockDatadir(dir)
        await lock.release()
      }
    } finally {
      await prober.killed()
    }
  })
})
