import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mountSmallFs, smallFsUnavailable } from '../testing/smallFs.js'
import { collectingLogger } from '../util/logger.js'
import { ChainStore } from './chainStore.js'
import { StoreWriteError } from './errors.js'
import { StoreWriteWatch, storeWriteError } from './writeFailure.js'

// LMDB on a full filesystem, as lmdb-js surfaces it (writeFailure.ts has what was found): every write of the store
// fails with StoreWriteError naming ENOSPC, what was stored stays readable, and writing works again once there is room.

const unavailable = smallFsUnavailable()
const hash = (b: number) => new Uint8Array(32).fill(b)

describe.skipIf(unavailable !== undefined)(`the store on a full filesystem${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`, () => {
  it('fails each write with StoreWriteError (ENOSPC), keeps what it stored, and writes again once space is freed', async () => {
    const fs = mountSmallFs(4 * 1024 * 1024)
    if (typeof fs === 'string') throw new Error(fs)
    const store = new ChainStore(join(fs.path, 'db'))
    try {
      store.markInvalidSync(hash(1), { latestValidHash: '0x00', reason: 'stored before the disk filled' })
      const filler = fs.fill()
      // A fresh store has no pages freed by earlier commits to reuse: the next write must extend the file.
      const failed = (() => {
        try {
          store.setCanonicalSync(0n, [{ number: 1n, hash: hash(2) }], 0n, { head: hash(2) })
        } catch (e) {
          return e
        }
      })()
      expect(failed).toBeInstanceOf(StoreWriteError)
      expect(failed).toMatchObject({
        kind: 'diskFull',
        message: 'cannot store the forkchoice update: no space left on device (ENOSPC)',
        data: { datadir: join(fs.path, 'db'), reason: 'no space left on device (ENOSPC)' },
      })
      expect(store.getInvalid(hash(1))?.reason).toBe('stored before the disk filled')
      expect(store.getLabel('head')).toBeUndefined()
      rmSync(filler)
      store.setCanonicalSync(0n, [{ number: 1n, hash: hash(2) }], 0n, { head: hash(2) })
      expect(new Uint8Array(store.getLabel('head')!)).toEqual(hash(2))
    } finally {
      await store.close()
      fs.unmount()
    }
  })

  it("takes LMDB's EIO (a short write) for a full disk only where the filesystem is full", () => {
    // Larger than what counts as nearly full (16 MiB), so that it starts out with room.
    const fs = mountSmallFs(32 * 1024 * 1024)
    if (typeof fs === 'string') throw new Error(fs)
    try {
      const eio = Object.assign(new Error('Input/output error'), { code: 5 })
      expect(storeWriteError(eio, 'cannot store block 1', fs.path)).toBeUndefined()
      fs.fill()
      expect(storeWriteError(eio, 'cannot store block 1', fs.path)?.message).toBe('cannot store block 1: no space left on device (ENOSPC)')
    } finally {
      fs.unmount()
    }
  })
})

describe('StoreWriteWatch', () => {
  it('logs a run of failed writes once, at error, and the first write that succeeds after it', () => {
    const lines: string[] = []
    const watch = new StoreWriteWatch(collectingLogger(lines, 'info'))
    const full = (n: number) =>
      new StoreWriteError(`cannot store block ${n}: no space left on device (ENOSPC)`, 'diskFull', {
        datadir: '/data',
        reason: 'no space left on device (ENOSPC)',
        cause: 'No space left on device',
      })
    watch.succeeded()
    for (let n = 1; n <= 3; n++) watch.failed(full(n))
    watch.succeeded()
    watch.succeeded()
    watch.failed(full(4))
    expect(lines.map((l) => JSON.parse(l) as { level: number; msg: string })).toMatchObject([
      { level: 50, msg: 'store writes failing, no space left on device (ENOSPC): no block is stored until there is room; reads go on' },
      { level: 30, msg: 'store writes succeed again' },
      { level: 50, msg: 'store writes failing, no space left on device (ENOSPC): no block is stored until there is room; reads go on' },
    ])
  })
})
