import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { tempDatadir } from '../../testing/paths.js'
import { startTestNode } from '../../testing/testNode.js'
import { warmUpBlocks } from './blockWarmUp.js'

const parent = tempDatadir('warm-up')
afterAll(() => rmSync(parent, { recursive: true, force: true }))

describe("an engine worker's block warm-up", () => {
  it('builds and imports its blocks on a throwaway chain, then deletes it, and a crashed one left before', async () => {
    const dir = join(parent, 'warm-up-1')
    // What a warm-up cut off by a crash would leave.
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'chain.mdb'), 'left over')
    // Each block is checked VALID by the import (warmUpBlocks throws otherwise).
    expect(await warmUpBlocks(dir, 0)).toBe(2)
    expect(existsSync(dir)).toBe(false)
  })

  it("leaves nothing in a started node's datadir, and the node's own chain untouched", async () => {
    const datadir = join(parent, 'node')
    mkdirSync(datadir)
    const t = await startTestNode({ datadir })
    try {
      expect(readdirSync(datadir).filter((n) => n.startsWith('warm-up'))).toEqual([])
      expect((await t.http('eth_blockNumber')).result).toBe('0x0')
    } finally {
      await t.close()
    }
  })
})
