import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { genesisBlock } from '../state/genesis.js'
import { ChainStore } from '../store/chainStore.js'
import { tempDatadir } from '../testing/paths.js'
import { ENGINE_CLIENT, WorkerPool } from './pool.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('closing a lane', () => {
  it('stops each thread only once it has started, even one still loading its modules', async () => {
    // Before: close() stopped the threads at once. One still loading its modules (the lane just made, or a thread
    // started in place of one the watchdog stopped, as in admissionByCost.test.ts) aborted the whole process now and
    // then: "terminate called after throwing an instance of 'Napi::Error'" when cut off in secp256k1's or c-kzg's
    // start-up, or V8's fatal "IsGraphAsync must be used on an instantiated module" in Node's module linking. Which
    // one a run hit was luck; that the threads were stopped before they had started was certain: a thread takes
    // hundreds of milliseconds to load its modules, and this closes the lane in the turn it was made.
    const spec = new ChainSpec(devGenesis())
    const datadir = tempDatadir('pool-close')
    const store = new ChainStore(datadir)
    await genesisBlock(spec, store)

    // What each thread posted, and whether it had posted that it started when it was stopped (every stop of a lane's
    // thread goes through Worker.terminate: Piscina's and the watchdog's).
    const started = new Set<number>()
    const stops: { thread: number; started: boolean }[] = []
    const emit = Worker.prototype.emit
    vi.spyOn(Worker.prototype, 'emit').mockImplementation(function (this: Worker, event, ...args) {
      const message = args[0] as { started?: unknown } | undefined
      if (event === 'message' && typeof message?.started === 'number') started.add(this.threadId)
      return emit.call(this, event, ...args)
    })
    const terminate = Worker.prototype.terminate
    vi.spyOn(Worker.prototype, 'terminate').mockImplementation(function (this: Worker) {
      stops.push({ thread: this.threadId, started: started.has(this.threadId) })
      return terminate.call(this)
    })

    const lane = new WorkerPool({ datadir, genesisJson: JSON.stringify(spec.genesis) }, { name: 'public', threads: 2 })
    await lane.close()
    await store.close()

    expect(stops.map((s) => s.started)).toEqual([true, true])
  })
})

describe("a call's time limit", () => {
  it("does not count the time its worker took to start: a lane's first call is run, not timed out", async () => {
    // Before: a call's deadline ran from when it was made, so the first calls after a start waited out the worker's
    // start-up (its modules, the interpreter's warm-up: hundreds of milliseconds, seconds on a loaded machine) on
    // their own clock. A dev wallet's send, whose gas estimate went to the lane, failed so ("execution aborted") on a
    // loaded CI machine. geth's --rpc.evmtimeout bounds the call's execution.
    const spec = new ChainSpec(devGenesis())
    const datadir = tempDatadir('pool-first-call')
    const store = new ChainStore(datadir)
    const genesis = await genesisBlock(spec, store)
    const lane = new WorkerPool({ datadir, genesisJson: JSON.stringify(spec.genesis) }, { name: 'public', threads: 1 })
    try {
      // 100 ms: less than a worker takes to start (its modules alone take several hundred), more than this call takes
      // once it runs (a few microseconds).
      const call = { blockHash: genesis.hash(), call: { to: new Uint8Array(20).fill(7) }, gasCap: 50_000_000n }
      const outcome = await lane.run({ op: 'call', input: call, mode: 'call' }, { timeoutMs: 100 })
      expect(outcome).toMatchObject({ status: 'success' })
    } finally {
      await lane.close()
      await store.close()
    }
  })
})

describe('a lane whose threads start on demand (idleMs)', () => {
  it('holds no thread until a call needs one, answers that call, and stops the thread once idle', async () => {
    const spec = new ChainSpec(devGenesis())
    const datadir = tempDatadir('pool-on-demand')
    const store = new ChainStore(datadir)
    await genesisBlock(spec, store)
    const lane = new WorkerPool({ datadir, genesisJson: JSON.stringify(spec.genesis) }, { name: 'public', threads: 2, idleMs: 100 })
    try {
      expect(lane.running).toBe(0)
      expect(await lane.run({ op: 'ping' })).toBeNull()
      // A full collection, as the node asks of its engine workers when quiet (node/settle.ts).
      expect(await lane.run({ op: 'settle' })).toBeNull()
      expect(lane.running).toBeGreaterThan(0)
      await vi.waitFor(() => expect(lane.running).toBe(0), { timeout: 30_000, interval: 50 })
    } finally {
      await lane.close()
      await store.close()
    }
  })
})

describe('a held lane (an engine call being answered)', () => {
  it("sends the engine's own work and holds the rest until released", async () => {
    const spec = new ChainSpec(devGenesis())
    const datadir = tempDatadir('pool-held')
    const store = new ChainStore(datadir)
    await genesisBlock(spec, store)
    const lane = new WorkerPool({ datadir, genesisJson: JSON.stringify(spec.genesis) }, { name: 'public', threads: 1 })
    try {
      lane.hold()
      let publicAnswered = false
      const publicCall = lane.run({ op: 'ping' }).then(() => (publicAnswered = true))
      // Queued after the public call, answered before it: the lane sends it though held.
      expect(await lane.runAs(ENGINE_CLIENT, { op: 'ping' })).toBeNull()
      expect(publicAnswered).toBe(false)
      lane.unhold()
      await publicCall
      expect(publicAnswered).toBe(true)
    } finally {
      await lane.close()
      await store.close()
    }
  })
})
