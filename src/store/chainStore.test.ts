import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT, tempDatadir } from '../testing/paths.js'
import { ChainStore } from './chainStore.js'

// The worker runs the built store (npm test builds before vitest), as the node's pool workers do.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
import(workerData.module).then(({ ChainStore }) => {
  const store = new ChainStore(workerData.dir)
  const read = () => Buffer.from(store.db('meta').getBinary(Buffer.from('k'))).toString()
  parentPort.postMessage(read())
  // Like Piscina's atomics loop between tasks: no event-loop turn, so lmdb-js's own snapshot reset never runs.
  Atomics.wait(workerData.flag, 0, 0)
  const before = read()
  store.refreshSnapshot()
  parentPort.postMessage([before, read()])
})
`

describe('ChainStore snapshots across threads', () => {
  it('refreshSnapshot makes a thread that never yields see what another thread committed', async () => {
    const dir = tempDatadir('snapshot')
    const store = new ChainStore(dir)
    store.db('meta').putSync(Buffer.from('k'), Buffer.from('v1'))
    const flag = new Int32Array(new SharedArrayBuffer(4))
    const module = new URL('dist/store/chainStore.js', `file://${REPO_ROOT}`).href
    const worker = new Worker(WORKER, { eval: true, workerData: { dir, flag, module } })
    const messages: unknown[] = []
    const next = () => new Promise((resolve) => worker.once('message', resolve))
    messages.push(await next())
    store.db('meta').putSync(Buffer.from('k'), Buffer.from('v2'))
    Atomics.store(flag, 0, 1)
    Atomics.notify(flag, 0)
    messages.push(await next())
    await worker.terminate()
    await store.close()
    // The stale read is lmdb-js's behaviour (the reason refreshSnapshot exists); the fresh one is ours.
    expect(messages).toEqual(['v1', ['v1', 'v2']])
  })
})

describe('a read-only store', () => {
  it('refuses to open before the node has made all its databases, rather than holding one that is missing for good', async () => {
    // Seen beside the README's balancer recipe: readers started with the node answered every eth_getTransactionByHash
    // -32603 "Cannot read properties of undefined (reading 'getBinaryFast')": lmdb-js opening a database that does not
    // exist yet in a read-only environment gives undefined, and the reader kept that store.
    const dir = tempDatadir('half-made')
    const { open } = await import('lmdb')
    const env = open({ path: `${dir}/chain.mdb` })
    env.openDB({ name: 'meta' })
    await env.close()
    expect(() => new ChainStore(dir, true)).toThrow(/not made yet/)
  })
})
