import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { rpcCompatPath, tempDatadir } from '../../testing/paths.js'
import { spawnNode } from '../../testing/spawnNode.js'
import { warmUpBlocks } from './blockWarmUp.js'

const parent = tempDatadir('warm-up')
afterAll(() => rmSync(parent, { recursive: true, force: true }))

describe('the block warm-up', () => {
  it('builds and imports its blocks on a throwaway chain, then deletes it, and a crashed one left before', async () => {
    const dir = join(parent, 'warm-up-1')
    // What a warm-up cut off by a crash would leave.
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'chain.mdb'), 'left over')
    // Each block is checked VALID by the import (warmUpBlocks throws otherwise).
    expect(await warmUpBlocks(dir, 0)).toBe(2)
    expect(existsSync(dir)).toBe(false)
  })

  it("sponge node for a consensus client: done before the Engine API opens, nothing left in the datadir, the node's own chain untouched", async () => {
    const datadir = join(parent, 'node')
    // Not dev mode, which skips the warm-up: a chain whose blocks come through the Engine API.
    const node = await spawnNode(['--no-kzg-preload', '--chain', rpcCompatPath('genesis.json'), '--datadir', datadir, '--no-mining'])
    try {
      expect(readdirSync(datadir).filter((n) => n.startsWith('warm-up'))).toEqual([])
      const res = await fetch(node.httpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
      })
      expect(((await res.json()) as { result: string }).result).toBe('0x0')
    } finally {
      await node.stop()
    }
  })

  it("sponge node in dev mode: the main thread's warm-up done before it serves, nothing left, a send mined as block 1 of its own chain", async () => {
    const datadir = join(parent, 'dev')
    const node = await spawnNode(['--no-kzg-preload', '--chain', 'dev', '--datadir', datadir, '--workers', '1'])
    try {
      const log = node.log()
      const warmed = /"blocks":(\d+),"ms":\d+,"msg":"dev mode: the block path warmed up"/.exec(log)
      expect(Number(warmed?.[1])).toBe(300)
      expect(log.indexOf('"msg":"serving"')).toBeGreaterThan(warmed!.index)
      expect(readdirSync(datadir).filter((n) => n.startsWith('warm-up'))).toEqual([])
      const call = async (method: string, params: unknown[]) => {
        const res = await fetch(node.httpUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        })
        return ((await res.json()) as { result: unknown }).result
      }
      expect(await call('eth_blockNumber', [])).toBe('0x0')
      const [from, to] = devAccounts().map((a) => a.address)
      const hash = await call('eth_sendTransaction', [{ from, to, value: '0x1' }])
      expect(await call('eth_getTransactionReceipt', [hash])).toMatchObject({ blockNumber: '0x1', status: '0x1' })
    } finally {
      await node.stop()
    }
  })
})
