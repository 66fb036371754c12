import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'
import { bytesToHex } from '../util/hex.js'
import { rmSync } from 'node:fs'
import { tempDatadir } from '../testing/paths.js'
import { spawnNode } from '../testing/spawnNode.js'
import { ChainStore } from './chainStore.js'
import { type HeadChange, HeadWatcher } from './headWatcher.js'

// A reader's head watcher over a node's store (here the node's own, in-process: what the watcher reads is the same).

/** setInterval's longest delay: no poll within a test. */
const NO_POLL = 2 ** 31 - 1

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: { period: 3600 }, devAccounts: devAccounts() })
})
afterAll(async () => {
  await n.close()
})

const head = async () => (await n.http<{ hash: string; number: string }>('eth_getBlockByNumber', ['latest', false])).result!
const hex = (c: HeadChange) => ({ added: c.added.map(bytesToHex), removed: c.removed.map(bytesToHex), head: bytesToHex(c.head.hash) })

describe('HeadWatcher', () => {
  it('gives each change as the blocks that left and joined the chain, ascending, across a reorg', async () => {
    const changes: HeadChange[] = []
    const watcher = new HeadWatcher(n.node.store, (c) => changes.push(c), { pollMs: NO_POLL })
    const start = await head()
    await n.http('evm_mine')
    const b1 = await head()
    const snap = (await n.http<string>('evm_snapshot')).result!
    await n.http('evm_mine')
    const b2 = await head()
    // Not checked yet: the head taken in is the one it started with.
    expect(bytesToHex(watcher.head.hash)).toBe(start.hash)
    watcher.check()
    expect(changes.map(hex)).toEqual([{ added: [b1.hash, b2.hash], removed: [], head: b2.hash }])
    // b2 leaves; two blocks of another branch join.
    await n.http('evm_revert', [snap])
    // Another timestamp than b2's: an empty block on the same parent at the same time would be b2 again.
    const parent = (await n.http<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).result!
    await n.http('evm_setNextBlockTimestamp', [Number(parent.timestamp) + 7])
    await n.http('evm_mine')
    const c2 = await head()
    await n.http('evm_mine')
    const c3 = await head()
    expect(c2.number).toBe(b2.number)
    expect(c2.hash).not.toBe(b2.hash)
    watcher.check()
    expect(changes.map(hex)[1]).toEqual({ added: [c2.hash, c3.hash], removed: [b2.hash], head: c3.hash })
    watcher.check()
    expect(changes).toHaveLength(2)
  })

  it('learns a new head from the store file’s events, with no poll', async () => {
    let seen: (c: HeadChange) => void = () => {}
    const changed = new Promise<HeadChange>((resolve) => (seen = resolve))
    const watcher = new HeadWatcher(n.node.store, (c) => seen(c), { pollMs: NO_POLL })
    watcher.start()
    try {
      await n.http('evm_mine')
      const b = await head()
      expect(bytesToHex((await changed).head.hash)).toBe(b.hash)
    } finally {
      watcher.stop()
    }
  })

  it('sees every head another process commits by the file’s events alone, though LMDB publishes a commit after its last write', async () => {
    // In one process a commit ends before any event is handled; across processes an event can come before the new
    // head is readable, with none after it (a fifth of the heads, measured, before the watcher looked again).
    const datadir = tempDatadir('head-watcher')
    const node = await spawnNode([
      ...['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--dev.period', '3600'],
      ...['--workers', '1', '--workers.engine', '1'],
    ])
    const store = new ChainStore(datadir, true)
    let wake: () => void = () => {}
    const heads: bigint[] = []
    const watcher = new HeadWatcher(
      store,
      (c) => {
        heads.push(c.head.number)
        wake()
      },
      { pollMs: NO_POLL },
    )
    watcher.start()
    try {
      const mine = async () => {
        const res = await fetch(node.httpUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
        })
        expect(res.status).toBe(200)
      }
      for (let n = 1n; n <= 30n; n++) {
        await mine()
        // Without the poll, a head no event brings never comes: the test's timeout is the bound.
        while (heads.at(-1) !== n) await new Promise<void>((r) => (wake = r))
      }
      expect(heads).toEqual(Array.from({ length: 30 }, (_, i) => BigInt(i + 1)))
    } finally {
      watcher.stop()
      await store.close()
      await node.stop()
      rmSync(datadir, { recursive: true, force: true })
    }
  }, 120_000)
})
