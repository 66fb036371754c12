import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT, tempDatadir } from '../testing/paths.js'

const dist = (path: string) => pathToFileURL(join(REPO_ROOT, 'dist', path)).href
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

// A valid signature, so that each recovery runs the whole computation.
const DIGEST = new Uint8Array(32).fill(3)
const SIG = secp256k1.sign(DIGEST, new Uint8Array(32).fill(1), { prehash: false, format: 'recovered' })

// A worker that recovers a signature with the native binding in a loop, its call already past its deadline.
const WORKER = `
import { parentPort, threadId, workerData } from 'node:worker_threads'
import { guardNativeCalls } from '${dist('crypto/nativeCalls.js')}'
import { ecrecover } from '${dist('crypto/secp256k1.js')}'
import { WorkerDeadline } from '${dist('workers/deadlines.js')}'
const board = new WorkerDeadline(workerData, threadId)
guardNativeCalls(board)
board.running(1)
const digest = Uint8Array.from(Buffer.from('${hex(DIGEST)}', 'hex'))
const r = Uint8Array.from(Buffer.from('${hex(SIG.subarray(1, 33))}', 'hex'))
const s = Uint8Array.from(Buffer.from('${hex(SIG.subarray(33))}', 'hex'))
const v = ${27 + SIG[0]!}n
parentPort.postMessage('started')
for (;;) {
  try { ecrecover(digest, v, r, s) } catch {}
}
`

// Stops such a worker, as the lane's watchdog does, again and again; exits 0 if the process lived through it.
const MAIN = `
import { Worker } from 'node:worker_threads'
import { setTimeout as sleep } from 'node:timers/promises'
import { createDeadlineBuffer, threadsToStop } from '${dist('workers/deadlines.js')}'
const board = createDeadlineBuffer()
for (let i = 0; i < Number(process.argv[3]); i++) {
  const w = new Worker(process.argv[2], { workerData: board })
  await new Promise((resolve) => w.once('message', resolve))
  // A random moment to stop it at (the stress, not a wait for anything), then the watchdog's look, again until the
  // worker is out of its native call: bounded, a worker that never leaves one fails the test.
  await sleep(Math.random() * 3)
  for (let looks = 0; threadsToStop(board, Date.now(), new Set([w.threadId])).length === 0; looks++) {
    if (looks === 10000) {
      console.error('the worker never left its native call')
      process.exit(2)
    }
    await sleep(0)
  }
  await w.terminate()
  threadsToStop(board, Date.now(), new Set())
}
`

// A lane's own worker module, stopped the moment it says it started (as a lane's close() may), again and again; exits 0
// if the process lived through it.
const LANE_MAIN = `
import { Worker } from 'node:worker_threads'
import { ChainSpec } from '${dist('chain/spec.js')}'
import { devGenesis } from '${dist('chain/dev.js')}'
import { genesisBlock } from '${dist('state/genesis.js')}'
import { ChainStore } from '${dist('store/chainStore.js')}'
const [datadir, times] = [process.argv[2], Number(process.argv[3])]
const spec = new ChainSpec(devGenesis())
const store = new ChainStore(datadir)
await genesisBlock(spec, store)
for (let i = 0; i < times; i++) {
  const w = new Worker(new URL('${dist('workers/worker.js')}'), { workerData: { datadir, genesisJson: JSON.stringify(spec.genesis) } })
  await new Promise((resolve) => w.on('message', (m) => { if (typeof m?.started === 'number') void w.terminate().then(resolve) }))
}
await store.close()
`

/** Runs `main` (with `args`) in a process of its own: how it exited, and what it wrote to stderr. */
async function runAlone(dir: string, main: string, args: string[]): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  writeFileSync(join(dir, 'main.mjs'), main)
  const child = spawn(process.execPath, [join(dir, 'main.mjs'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null]
  return { code, signal, stderr }
}

describe('stopping a worker', () => {
  it('waits until it is out of a native call: the process lives through 200 stops', async () => {
    // Without the wait, node-addon-api aborts the process (a C++ exception out of the call) about once in 40 stops.
    const dir = tempDatadir('native-stop')
    writeFileSync(join(dir, 'worker.mjs'), WORKER)
    expect(await runAlone(dir, MAIN, [join(dir, 'worker.mjs'), '200'])).toEqual({ code: 0, signal: null, stderr: '' })
  }, 120_000)

  it("stops a lane's worker only after its start-up's store reads: the process lives through 50 stops at its word", async () => {
    // Before: a worker said it had started before its warm-up's first LMDB read, and a lane closed then (a node
    // closing just after a public worker had started, in a clean-clone test run) stopped it inside lmdb-js's
    // renewReadTxn: "FATAL ERROR: Error::ThrowAsJavaScriptException napi_throw", the whole process gone. This loop,
    // 30 stops, aborted in three runs of seven.
    const dir = tempDatadir('lane-start-stop')
    expect(await runAlone(dir, LANE_MAIN, [join(dir, 'chain'), '50'])).toEqual({ code: 0, signal: null, stderr: '' })
  }, 120_000)
})
