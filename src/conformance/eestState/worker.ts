import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'
import { FixtureError, buildCase, parseFixtureFile } from './fixture.js'
import type { ExecutorModule, StateTestExecutor } from './types.js'
import { judge } from './verdict.js'

// A worker thread of the state-test runner: loads the chosen executor once, then runs the cases of one file per
// message, answering each case as it ends (so the main thread sees progress, and which case a stuck worker was on).

/** The executor modules, by the name `--evm` takes; each exports createExecutor() (types.ts: ExecutorModule). */
export const EXECUTOR_MODULES = { ethereumjs: './ethereumjsExecutor.js', sponge: './spongeExecutor.js' } as const
export type EvmName = keyof typeof EXECUTOR_MODULES

export interface WorkerSetup {
  evm: EvmName
  dir: string
}

/** A file's cases to run: [test, fork, post entry index]. */
export interface FileTask {
  file: string
  cases: [test: string, fork: string, index: number][]
}

export type WorkerReply =
  | { kind: 'ready' }
  | { kind: 'fatal'; message: string }
  /** One case: no reason, it passed; `ms` its parsing, execution and verdict. */
  | { kind: 'case'; file: string; test: string; fork: string; index: number; ms: number; reason?: string }

function isExecutorModule(m: unknown): m is ExecutorModule {
  return typeof m === 'object' && m !== null && typeof (m as { createExecutor?: unknown }).createExecutor === 'function'
}

/** The executor of a module name, loaded where this file is (dist/conformance/eestState/). */
export async function loadExecutor(evm: EvmName): Promise<StateTestExecutor> {
  const mod: unknown = await import(new URL(EXECUTOR_MODULES[evm], import.meta.url).href)
  if (!isExecutorModule(mod)) throw new Error(`${EXECUTOR_MODULES[evm]} does not export createExecutor()`)
  return await mod.createExecutor()
}

const firstLine = (e: unknown): string => (e instanceof Error ? `${e.name === 'Error' ? '' : `${e.name}: `}${e.message}` : String(e)).split('\n')[0]!

/** Runs a file's cases with the executor, calling `reply` once per case in order. */
export async function runFile(executor: StateTestExecutor, dir: string, task: FileTask, reply: (r: WorkerReply) => void): Promise<void> {
  let file: ReturnType<typeof parseFixtureFile> | undefined
  let fileProblem: string | undefined
  try {
    file = parseFixtureFile(readFileSync(join(dir, task.file), 'utf8'))
  } catch (e) {
    fileProblem = `fixture: ${firstLine(e)}`
  }
  for (const [test, fork, index] of task.cases) {
    const t0 = performance.now()
    let reason = fileProblem
    if (file !== undefined) {
      try {
        const c = buildCase(file, { file: task.file, test, fork, index })
        reason = judge(c.expect, await executor.run(c.input))
      } catch (e) {
        reason = e instanceof FixtureError ? `fixture: ${e.message}` : `threw: ${firstLine(e)}`
      }
    }
    reply({ kind: 'case', file: task.file, test, fork, index, ms: performance.now() - t0, ...(reason === undefined ? {} : { reason }) })
  }
}

if (parentPort !== null && (workerData as { eestStateWorker?: WorkerSetup } | null)?.eestStateWorker !== undefined) {
  const port = parentPort
  const setup = (workerData as { eestStateWorker: WorkerSetup }).eestStateWorker
  try {
    const executor = await loadExecutor(setup.evm)
    // One file at a time: the main thread sends the next when every case of this one is answered.
    let queue = Promise.resolve()
    port.on('message', (task: FileTask) => {
      queue = queue
        .then(() => runFile(executor, setup.dir, task, (r) => port.postMessage(r)))
        .catch((e: unknown) => port.postMessage({ kind: 'fatal', message: firstLine(e) } satisfies WorkerReply))
    })
    port.postMessage({ kind: 'ready' } satisfies WorkerReply)
  } catch (e) {
    port.postMessage({ kind: 'fatal', message: firstLine(e) } satisfies WorkerReply)
  }
}
