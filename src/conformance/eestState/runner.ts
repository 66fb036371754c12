import { Worker } from 'node:worker_threads'
import type { CaseKey } from './fixture.js'
import type { EvmName, FileTask, WorkerReply, WorkerSetup } from './worker.js'

// Runs cases on worker threads, a file at a time each (a file's cases share its parsing): a worker asks for the next
// file when it has answered every case of its current one. A worker that answers nothing for `timeoutMs` (a case
// stuck in an endless loop, say) is stopped: the case it was on fails as timed out, the rest of its file goes back
// to the queue, and a new worker takes its place.

export interface CaseResult {
  key: CaseKey
  /** What differed; undefined when the case passed. */
  reason: string | undefined
  /** How long the case took in its worker (a timed-out case: the timeout). */
  ms: number
}

export interface RunCasesOptions {
  evm: EvmName
  /** The unpacked fixtures' folder (archive.ts: openFixtures). */
  dir: string
  jobs: number
  timeoutMs: number
  /** Each result as it arrives (progress). */
  onResult?: (result: CaseResult, done: number, total: number) => void
}

/** The cases grouped into one task per file, in order. */
function tasksOf(cases: readonly CaseKey[]): FileTask[] {
  const tasks: FileTask[] = []
  for (const c of cases) {
    const last = tasks[tasks.length - 1]
    if (last !== undefined && last.file === c.file) last.cases.push([c.test, c.fork, c.index])
    else tasks.push({ file: c.file, cases: [[c.test, c.fork, c.index]] })
  }
  return tasks
}

interface Slot {
  worker: Worker
  ready: boolean
  /** The file being run and its cases not yet answered. */
  task: FileTask | undefined
  lastAt: number
  /** Stopped by us: its exit is expected. */
  stopped: boolean
}

export function runCases(cases: readonly CaseKey[], opts: RunCasesOptions): Promise<CaseResult[]> {
  const queue = tasksOf(cases)
  const total = cases.length
  const results: CaseResult[] = []
  const slots = new Set<Slot>()
  const jobs = Math.max(1, Math.min(opts.jobs, queue.length))
  const setup: WorkerSetup = { evm: opts.evm, dir: opts.dir }

  return new Promise<CaseResult[]>((resolve, reject) => {
    let settled = false
    const finish = (error?: Error) => {
      if (settled) return
      settled = true
      clearInterval(watchdog)
      for (const s of slots) stop(s)
      if (error === undefined) resolve(results)
      else reject(error)
    }
    const record = (key: CaseKey, reason: string | undefined, ms: number) => {
      const result = { key, reason, ms }
      results.push(result)
      opts.onResult?.(result, results.length, total)
      if (results.length === total) finish()
    }
    const stop = (s: Slot) => {
      s.stopped = true
      slots.delete(s)
      void s.worker.terminate()
    }
    /** The slot's file: its first unanswered case fails with `why`, the others go back to the front of the queue. */
    const abandon = (s: Slot, why: string) => {
      const task = s.task
      s.task = undefined
      stop(s)
      if (task !== undefined && task.cases.length > 0) {
        const [[test, fork, index], ...rest] = task.cases as [FileTask['cases'][number], ...FileTask['cases']]
        if (rest.length > 0) queue.unshift({ file: task.file, cases: rest })
        record({ file: task.file, test, fork, index }, why, Date.now() - s.lastAt)
      }
      if (!settled && queue.length > 0) spawn()
    }
    const dispatch = (s: Slot) => {
      const task = queue.shift()
      if (task === undefined) {
        stop(s)
        return
      }
      s.task = { file: task.file, cases: [...task.cases] }
      s.lastAt = Date.now()
      s.worker.postMessage(task)
    }
    const spawn = () => {
      const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { eestStateWorker: setup } })
      const s: Slot = { worker, ready: false, task: undefined, lastAt: Date.now(), stopped: false }
      slots.add(s)
      worker.on('message', (m: WorkerReply) => {
        if (s.stopped) return
        if (m.kind === 'ready') {
          s.ready = true
          dispatch(s)
        } else if (m.kind === 'fatal') {
          if (!s.ready) finish(new Error(`the ${opts.evm} executor did not load: ${m.message}`))
          else abandon(s, `worker failed: ${m.message}`)
        } else {
          const task = s.task
          const head = task?.cases[0]
          if (task === undefined || head === undefined || head[0] !== m.test || head[1] !== m.fork || head[2] !== m.index) {
            finish(new Error(`worker answered ${m.file} ${m.test} out of turn`))
            return
          }
          task.cases.shift()
          s.lastAt = Date.now()
          record({ file: m.file, test: m.test, fork: m.fork, index: m.index }, m.reason, m.ms)
          if (task.cases.length === 0 && !settled) dispatch(s)
        }
      })
      worker.on('error', (e) => {
        if (s.stopped) return
        if (!s.ready) finish(new Error(`the ${opts.evm} executor's worker failed to start: ${e.message}`))
        else abandon(s, `worker died: ${e.message.split('\n')[0]}`)
      })
      worker.on('exit', (code) => {
        if (!s.stopped) abandon(s, `worker exited with code ${code}`)
      })
    }
    const watchdog = setInterval(() => {
      const now = Date.now()
      for (const s of [...slots]) {
        if (s.task !== undefined && now - s.lastAt > opts.timeoutMs)
          abandon(s, `timed out after ${Math.round(opts.timeoutMs / 1000)} s (worker stopped)`)
      }
    }, 500)
    if (total === 0) {
      finish()
      return
    }
    for (let i = 0; i < jobs; i++) spawn()
  })
}
