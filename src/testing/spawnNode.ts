import { type ChildProcess, spawn } from 'node:child_process'
import { BUILT_CLI, TEST_HTTP_THREADS } from './paths.js'

export interface SpawnedNode {
  httpUrl: string
  authUrl: string | undefined
  process: ChildProcess
  log: () => string
  /** Resolves once its output (all of it, from the start) matches `pattern`; rejects after `timeoutMs` or its exit. */
  outputMatches(pattern: RegExp, timeoutMs: number): Promise<void>
  stop(): Promise<void>
}

/** Starts `sponge node` (this build's, or the CLI script given) on free ports and waits (bounded) until it serves. */
export function spawnNode(args: string[], timeoutMs = 120_000, cli = BUILT_CLI): Promise<SpawnedNode> {
  return spawnSponge('node', ['--http.port', '0', '--authrpc.port', '0', '--no-progress', ...args], timeoutMs, cli)
}

/**
 * Starts `sponge rpc` (a read-only reader; pass --datadir, and --rpc.upstream to forward sends) on a free port and
 * waits (bounded) until it serves: a reader started before its node waits for the node's store. `cli` as spawnNode's;
 * `onOutput` sees everything it prints, as it comes.
 */
export function spawnReader(args: string[], timeoutMs = 120_000, cli = BUILT_CLI, onOutput?: (all: string) => void): Promise<SpawnedNode> {
  return spawnSponge('rpc', ['--http.port', '0', ...args], timeoutMs, cli, onOutput)
}

function spawnSponge(
  command: 'node' | 'rpc',
  args: string[],
  timeoutMs: number,
  cli: string,
  onOutput?: (all: string) => void,
): Promise<SpawnedNode> {
  const threads = TEST_HTTP_THREADS === undefined || args.includes('--http.threads') ? [] : ['--http.threads', String(TEST_HTTP_THREADS)]
  const child = spawn(process.execPath, [cli, command, ...args, ...threads], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  /** Who waits for a pattern in the output: looked at only while someone waits. */
  const waiters = new Set<{ pattern: RegExp; done: () => void }>()
  const outputMatches = (pattern: RegExp, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(output)) return resolve()
      const waiter = {
        pattern,
        done: () => {
          clearTimeout(timer)
          child.off('close', onClose)
          waiters.delete(waiter)
          resolve()
        },
      }
      const fail = (why: string) => {
        waiters.delete(waiter)
        child.off('close', onClose)
        reject(new Error(`sponge ${command}: ${why} before its output matched ${pattern}`))
      }
      const onClose = () => fail('exited')
      const timer = setTimeout(() => fail(`${timeoutMs} ms passed`), timeoutMs)
      child.once('close', onClose)
      waiters.add(waiter)
    })
  return new Promise((resolve, reject) => {
    let httpUrl: string | undefined
    let authUrl: string | undefined
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`sponge ${command} did not start within ${timeoutMs} ms:\n${output}`))
    }, timeoutMs)
    let serving = false
    const onData = (d: Buffer) => {
      output += d.toString()
      onOutput?.(output)
      for (const w of waiters) if (w.pattern.test(output)) w.done()
      // Once it serves, its output is only kept: looking through all of it again at each line (a dev node writes one
      // a block) cost the benches' client CPU that grew with the run, on the machine the node shares.
      if (serving) return
      httpUrl ??= /(?:HTTP|read-only) JSON-RPC on (http:\/\/[\d.:]+)/.exec(output)?.[1]
      authUrl ??= /Engine API on (http:\/\/[\d.:]+)/.exec(output)?.[1]
      if (httpUrl !== undefined && /"msg":"serving"/.test(output)) {
        serving = true
        clearTimeout(timer)
        resolve({
          httpUrl,
          authUrl,
          process: child,
          log: () => output,
          outputMatches,
          stop: () =>
            new Promise((res) => {
              if (child.exitCode !== null || child.signalCode !== null) return res()
              child.once('exit', () => res())
              child.kill('SIGTERM')
              setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
            }),
        })
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    // 'close', not 'exit': the process may exit before its last output (a fatal line) has been read from the pipes.
    child.once('close', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`sponge ${command} exited with ${code ?? signal} before serving:\n${output}`))
    })
  })
}
