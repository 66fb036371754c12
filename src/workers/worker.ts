import { join } from 'node:path'
import { parentPort, threadId, workerData } from 'node:worker_threads'
import type { GethGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { guardNativeCalls } from '../crypto/nativeCalls.js'
import { buildPayload } from '../engine/worker/payloadBuilder.js'
import { createAccessList } from '../calls/accessList.js'
import { runCall } from '../calls/callRunner.js'
import { estimateGas } from '../calls/estimate.js'
import { warmUpCalls } from '../calls/warmUp.js'
import { warmUpBlocks } from '../engine/worker/blockWarmUp.js'
import { EvmAbortedError } from '../evm/interpreter.js'
import { EvmConfig } from '../vm/evmConfig.js'
import { traceBlock, traceCall } from '../calls/traceRunner.js'
import { BlockExecutor } from '../exec/executor.js'
import { importPayload, type PayloadStatus } from '../engine/worker/payloadImport.js'
import type { NewPayloadInput } from '../engine/worker/payloadBlock.js'
import { blockPhases, enableBlockPhases } from '../util/blockPhases.js'
import { recoverRawSenders } from '../exec/senderRecovery.js'
import { simulate } from '../calls/simulate.js'
import { validateRawTx } from '../txrules/txValidation.js'
import { scanLogs } from '../logs/logQuery.js'
import { fullCollection } from '../util/fullCollection.js'
import { takeRole } from '../util/threadRole.js'
import { ChainStore } from '../store/chainStore.js'
import { answerStateQuery } from '../vm/stateQuery.js'
import { WorkerDeadline, WorkerStoppingError } from './deadlines.js'
import { crossingError } from './errors.js'
import type { Batch, SingleTask, TaskOutcome, WorkerInit, WorkerStarted } from './tasks.js'
import { useEvmThreadSettings } from '../evm/threadSettings.js'

// Each worker opens the LMDB environment once; every read is a consistent LMDB snapshot.
const init = workerData as WorkerInit
// Before the store and the warm-up: a public worker's start-up already yields the cores to the engine's threads.
if (init.role !== undefined) takeRole(init.role.name, init.role.nice)
const deadline = init.deadlines === undefined ? undefined : new WorkerDeadline(init.deadlines, threadId)
if (deadline !== undefined) guardNativeCalls(deadline)
const spec = new ChainSpec(JSON.parse(init.genesisJson) as GethGenesisFile)
const store = new ChainStore(init.datadir, init.readOnly === true)
const evmConfig = new EvmConfig(spec, store)
if (init.blockPhases !== undefined) enableBlockPhases(init.blockPhases)
useEvmThreadSettings(init)
/** The block executor over the store (newPayload, builds): made on first use in a public worker. */
let executor: Promise<BlockExecutor> | undefined = init.executesBlocks === true ? BlockExecutor.create(spec, store, evmConfig) : undefined
const blockExecutor = () => (executor ??= BlockExecutor.create(spec, store, evmConfig))
await executor
const decoder = new TextDecoder()
/** How long an engine worker's block warm-up goes on after its first two blocks (none: two are enough, measured). */
const BLOCK_WARM_UP_MS = 0
/** A full collection, made on the first `settle`: most workers never get one. */
let collect: (() => void) | undefined
/** The running call's deadline as performance.now() (0: none): Sponge's EVM stops itself there. */
let evmDeadline = 0

async function dispatch(task: SingleTask): Promise<unknown> {
  switch (task.op) {
    case 'ping':
      return null
    case 'settle':
      collect ??= fullCollection()
      collect()
      return null
    case 'state':
      return answerStateQuery(evmConfig, task.query)
    case 'receipt': {
      const loc = store.getTxLocation(task.txHash)
      if (loc === undefined) return null
      const bytes = store.getReceiptJsonBytes(loc.blockHash, loc.index)
      return bytes === undefined ? null : decoder.decode(bytes)
    }
    case 'newPayload':
      return newPayload(task.input)
    case 'build':
      return buildPayload(spec, store, await blockExecutor(), task.input)
    case 'validateTx':
      return validateRawTx(spec, store, evmConfig, task.raw, task.headHash)
    case 'call':
      return runCall(evmConfig, task.input, evmDeadline)
    case 'estimate':
      return estimateGas(evmConfig, task.input, evmDeadline)
    case 'accessList':
      return createAccessList(evmConfig, task.input, evmDeadline)
    case 'traceCall':
      return traceCall(evmConfig, task.input, task.opts, evmDeadline)
    case 'simulate':
      return simulate(evmConfig, task.input, evmDeadline)
    case 'recoverSenders': {
      recoverRawSenders(task.slots, task.transactions, spec.commonAt(BigInt(task.number), BigInt(task.timestamp)))
      return null
    }
    case 'logs':
      return scanLogs(store, task.scope, task.criteria, { maxResults: task.maxResults, maxBytes: task.maxBytes }, task.removed, task.budget)
    case 'trace':
      return traceBlock(evmConfig, task.blockHash, task.opts, task.only, evmDeadline) ?? null
  }
}

/** engine_newPayload's import, its block's phases counted when the node keeps metrics. */
async function newPayload(input: NewPayloadInput): Promise<PayloadStatus> {
  const exec = await blockExecutor()
  const phases = blockPhases
  if (phases === undefined) return importPayload(spec, store, exec, input)
  phases.begin()
  const started = performance.now()
  const status = await importPayload(spec, store, exec, input)
  phases.finish(performance.now() - started)
  return status
}

// An engine worker's block path is compiled before the first newPayload needs it: blocks of its own, on a throwaway
// chain in a directory of the datadir deleted after (engine/worker/blockWarmUp.ts). Before the message below: the
// warm-up writes to LMDB, and a thread stopped inside a write could take the process down.
if (init.warmsBlocks === true) {
  try {
    await warmUpBlocks(join(init.datadir, `warm-up-${threadId}`), BLOCK_WARM_UP_MS)
  } catch {
    // Only a head start: a warm-up that could not run (a full disk) leaves the first blocks to compile the path.
  }
}

// The interpreter is optimized before the first call needs it to be (calls/warmUp.ts).
const warmHead = store.getLabel('head') ?? store.getLabel('genesis')
if (warmHead !== undefined) warmUpCalls(evmConfig, warmHead)
// Its snapshot goes with it, as a task's does (run below): an idle worker holding one keeps the pages freed since.
store.refreshSnapshot()

// Every module is loaded (the native bindings' start-up among them) and the start-up's store reads are done: the lane
// may stop this thread from now on. Not before the reads: a thread stopped in its first LMDB read (lmdb-js's
// renewReadTxn) aborts the whole process, as a test run saw when a node closed just after a public worker started.
parentPort?.postMessage({ started: threadId } satisfies WorkerStarted)

/**
 * When this worker could first run a task. A call's time limit bounds its execution, as geth's --rpc.evmtimeout:
 * a batch sent before then waited for the thread's start-up (seconds on a loaded machine), and its deadlines move
 * by that wait.
 */
const readyAt = Date.now()

/**
 * Every task's outcome, in order: a batch's tasks fail one by one, never together. A call whose deadline passed
 * while it waited is not started; the one running is on the deadline board, for the lane's watchdog.
 */
export default async function run(batch: Batch): Promise<TaskOutcome<unknown>[]> {
  store.refreshSnapshot()
  const out: TaskOutcome<unknown>[] = []
  const startUp = batch.sentAt === undefined ? 0 : Math.max(0, readyAt - batch.sentAt)
  for (let i = 0; i < batch.tasks.length; i++) {
    const set = batch.deadlines?.[i] ?? 0
    const until = set === 0 ? 0 : set + startUp
    if (until === 0) {
      out.push(await settle(batch.tasks[i]!))
      continue
    }
    if (Date.now() >= until) {
      out.push(timedOut('deadline passed before the call started'))
      continue
    }
    // The EVM stops itself at the deadline; the watchdog's, a little later, is for a worker stuck elsewhere.
    deadline?.running(until + WATCHDOG_GRACE_MS)
    evmDeadline = performance.now() + (until - Date.now())
    const outcome = await settle(batch.tasks[i]!)
    evmDeadline = 0
    deadline?.running(0)
    // Past its deadline, a call's answer is the timeout, as geth's (and a native call refused to a thread being
    // stopped may have changed its result).
    out.push(Date.now() >= until ? timedOut('deadline passed while the call ran') : outcome)
  }
  // The snapshot goes with the batch: a worker waits for its next task in Atomics.wait, where lmdb-js's timer that
  // ends it never fires, and an idle worker holding it would keep every page the node frees meanwhile from reuse.
  store.refreshSnapshot()
  return out
}

/** How long past a call's deadline the lane's watchdog waits before stopping its worker. */
const WATCHDOG_GRACE_MS = 250

/**
 * The watchdog is stopping this thread (a call stuck past its deadline outside the EVM's own checks): it waits to be
 * stopped, running nothing more — a native call cut off by the stop would abort the process (nativeCalls.ts). The
 * lane answers the task's calls when the thread is gone.
 */
function awaitStop(): never {
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)
}

function timedOut(why: string): TaskOutcome<unknown> {
  return { ok: false, timedOut: why }
}

async function settle(task: SingleTask): Promise<TaskOutcome<unknown>> {
  try {
    return { ok: true, value: await dispatch(task) }
  } catch (e) {
    if (e instanceof EvmAbortedError) return timedOut('deadline passed while the call ran')
    if (e instanceof WorkerStoppingError) awaitStop()
    const error = crossingError(e)
    if (error !== undefined) return { ok: false, error }
    if (!(e instanceof Error)) return { ok: false, internal: { message: String(e) } }
    const message = `${e.name}: ${e.message}`
    return { ok: false, internal: e.stack === undefined ? { message } : { message, stack: e.stack } }
  }
}
