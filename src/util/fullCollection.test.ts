import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'

// Threads take their collections at the same moments (a node going quiet: node/settle.ts): each must get its
// collection however their calls interleave. The flag behind it is the process's: when each call turned it off again,
// one thread's turning it off between another's turning it on and making its context left the other without `gc`.

const MODULE = new URL('../../dist/util/fullCollection.js', import.meta.url).href
const THREADS = 4
const CALLS = 300

const WORKER = `
const { workerData, parentPort } = require('node:worker_threads')
import(workerData.module).then(({ fullCollection }) => {
  const start = new Int32Array(workerData.start)
  Atomics.add(start, 1, 1)
  Atomics.wait(start, 0, 0)
  let missing = 0
  for (let i = 0; i < workerData.calls; i++) {
    try {
      if (typeof fullCollection() !== 'function') missing++
    } catch {
      missing++
    }
  }
  parentPort.postMessage(missing)
})
`

describe('a full collection in every thread at once', () => {
  it(`gives each of ${THREADS} threads its collection on every one of ${CALLS} calls`, async () => {
    const start = new SharedArrayBuffer(8)
    const flags = new Int32Array(start)
    const workers = Array.from({ length: THREADS }, () => new Worker(WORKER, { eval: true, workerData: { module: MODULE, start, calls: CALLS } }))
    const answers = workers.map((w) => new Promise<number>((resolve, reject) => w.once('message', resolve).once('error', reject)))
    try {
      while (Atomics.load(flags, 1) < THREADS) await new Promise((r) => setTimeout(r, 5))
      Atomics.store(flags, 0, 1)
      Atomics.notify(flags, 0)
      expect(await Promise.all(answers)).toEqual(Array(THREADS).fill(0))
    } finally {
      await Promise.all(workers.map((w) => w.terminate()))
    }
  })
})
