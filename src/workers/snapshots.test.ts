import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'

// A worker waits for its next task in Atomics.wait, where lmdb-js never ends its read snapshot by itself: an idle
// worker kept the snapshot of its last task (seen in LMDB's reader table: the public worker at txnid 19 while the
// chain went on to 99), and with it every page the node freed since from reuse — the data file grows while it idles.

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: { period: 3600 }, devAccounts: devAccounts(), workers: 1 })
})
afterAll(async () => {
  await n.close()
})

describe('worker snapshots', () => {
  it('a worker holds no snapshot once its task is done, however long it then idles', async () => {
    const alice = devAccounts()[0]!.address
    // The public worker reads (a call, a state read at an old block), then idles while blocks are made.
    expect((await n.http('eth_call', [{ from: alice, to: alice }, 'latest'])).error).toBeUndefined()
    expect((await n.http('eth_getBalance', [alice, '0x0'])).error).toBeUndefined()
    for (let i = 0; i < 5; i++) expect((await n.http('evm_mine')).error).toBeUndefined()
    // evm_mine answers once its block is head; each serving thread takes the new head (ending the snapshot of its last
    // request) when it handles the block's message, which may come after that answer. A thread answers a metrics
    // request after every message posted to it before: once all have answered, all have taken the last block.
    await n.node.servingThreads?.metrics()
    expect(n.node.store.staleReaders()).toBe(0)
  })

  it('a serving thread holds no snapshot once its requests are answered, while blocks are made without a word to it', async () => {
    const alice = devAccounts()[0]!.address
    // Reads on the serving threads (at the flat head: no lane), then blocks the node makes itself: no request reaches
    // a thread, and with no subscriber none is told of them.
    for (let i = 0; i < 4; i++) expect((await n.http('eth_getBalance', [alice, 'latest'])).error).toBeUndefined()
    for (let i = 0; i < 5; i++) await n.node.devDriver!.mine()
    // A thread answers a metrics request after every turn of its loop before: its requests' turns are over.
    await n.node.servingThreads?.metrics()
    expect(n.node.store.staleReaders()).toBe(0)
  })
})
