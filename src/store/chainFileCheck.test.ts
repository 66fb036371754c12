import { closeSync, ftruncateSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { open } from 'lmdb'
import { describe, expect, it } from 'vitest'
import { tempDatadir } from '../testing/paths.js'
import { DamagedStoreError, chainFileProblem, checkChainFile } from './chainFileCheck.js'

/** chainFileProblem of a file's bytes (the file removed after). */
function problemOf(bytes: Uint8Array): string | undefined {
  const dir = tempDatadir('chainfile')
  const file = join(dir, 'chain.mdb')
  writeFileSync(file, bytes)
  const fd = openSync(file, 'r')
  try {
    return chainFileProblem(fd)
  } finally {
    closeSync(fd)
    rmSync(dir, { recursive: true })
  }
}

/** A deterministic stream of numbers, so that a failure can be replayed. */
function xorshift(seed: number): () => number {
  let x = seed
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}

/**
 * An LMDB store opened as ChainStore opens its own, written by many transactions that add and delete values of every
 * size (overflow pages, pages freed in the transaction that made them), in many named databases and in the main tree
 * (enough keys there for branch pages); `after` sees the file after each commit.
 */
async function writeStore(after: (file: string) => void): Promise<string> {
  const file = join(tempDatadir('chainfile-store'), 'chain.mdb')
  const root = open<Uint8Array, Uint8Array>({
    path: file,
    maxDbs: 64,
    mapSize: 1024 ** 3,
    noMemInit: true,
    keyEncoding: 'binary',
    encoding: 'binary',
  })
  const dbs = Array.from({ length: 40 }, (_, i) => root.openDB<Uint8Array, Uint8Array>({ name: `db${i}`, keyEncoding: 'binary', encoding: 'binary' }))
  const main = root
  const random = xorshift(31)
  const key = (n: number) => Buffer.from(n.toString(16).padStart(8, '0'))
  for (let commit = 0; commit < 120; commit++) {
    root.transactionSync(() => {
      for (let i = 0; i < 60; i++) {
        const db = dbs[Math.floor(random() * dbs.length)] ?? main
        const k = key(Math.floor(random() * 2000))
        if (random() < 0.3) db.removeSync(k)
        else db.putSync(k, Buffer.alloc(Math.floor(random() ** 3 * 12_000) + 1, commit))
      }
      main.putSync(key(commit), Buffer.alloc(100, commit))
    })
    after(file)
  }
  await root.close()
  return file
}

function removeStore(file: string): void {
  rmSync(dirname(file), { recursive: true })
}

describe('the chain file check', () => {
  it('never calls a store LMDB wrote damaged, after any of its commits', async () => {
    let checked = 0
    const file = await writeStore((file) => {
      const fd = openSync(file, 'r')
      try {
        expect(chainFileProblem(fd)).toBeUndefined()
      } finally {
        closeSync(fd)
      }
      checked++
    })
    removeStore(file)
    expect(checked).toBe(120)
  })

  it('names what is wrong with a file that is no store', async () => {
    const file = await writeStore(() => {})
    const stored = readFileSync(file)
    removeStore(file)
    expect(problemOf(new Uint8Array(0))).toBe('the file is empty')
    expect(problemOf(stored.subarray(0, 100))).toBe('100 bytes, shorter than an LMDB meta page')
    expect(problemOf(new Uint8Array(1 << 16).fill(0x5a))).toBe('page 0 is not an LMDB meta page')
    expect(problemOf(stored.subarray(0, 6000))).toBe('truncated: 6000 bytes, shorter than its two meta pages (8192)')
    expect(problemOf(stored.subarray(0, 8192))).toMatch(/^truncated: 8192 bytes, but page \d+ in use ends at byte \d+$/)
    const version = Buffer.from(stored)
    version.writeUInt32LE(999, 24 + 4)
    expect(problemOf(version)).toBe('LMDB data format 999 in meta page 0, this build reads 2')
    const second = Buffer.from(stored)
    second.fill(0xff, 4096, 8192)
    expect(problemOf(second)).toBe('page 1 is not an LMDB meta page')
  })

  it('once it finds a truncation, finds every shorter one', async () => {
    const file = await writeStore(() => {})
    const fd = openSync(file, 'r+')
    try {
      // One file cut shorter a page at a time: whether a cut is found is monotonic in its length (a page is needed
      // past the end or not), and a cut to the meta pages is always found.
      let found = false
      let end = readFileSync(file).length
      for (let cut = 0; cut < 100_000 && end > 8192; cut++) {
        end -= 4096
        ftruncateSync(fd, end)
        if (chainFileProblem(fd) !== undefined) found = true
        else expect(found, `a cut to ${end} bytes passed after a longer one was found`).toBe(false)
      }
      expect(found).toBe(true)
    } finally {
      closeSync(fd)
      removeStore(file)
    }
  })

  it('checkChainFile: nothing when there is no chain.mdb yet; DamagedStoreError naming the file otherwise', () => {
    const datadir = tempDatadir('chainfile-check')
    checkChainFile(datadir)
    writeFileSync(join(datadir, 'chain.mdb'), '')
    expect(() => checkChainFile(datadir)).toThrow(DamagedStoreError)
    expect(() => checkChainFile(datadir)).toThrow(`${join(datadir, 'chain.mdb')} is damaged, not a store Sponge can open: the file is empty`)
  })
})
