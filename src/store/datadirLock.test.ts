import { spawn } from 'node:child_process'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDatadir } from '../testing/paths.js'
import { DatadirLockedError, lockDatadir } from './datadirLock.js'

/** A second process that takes the lock, says so on stdout, and holds it until killed. */
function holder(datadir: string) {
  const lockModule = new URL('../../dist/store/datadirLock.js', import.meta.url).href
  const child = spawn(
    process.execPath,
    [
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
})
