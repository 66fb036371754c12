import { spawn } from 'node:child_process'
import { BUILT_CLI } from './paths.js'

export interface RunCliOptions {
  /** A command that runs the CLI (`['unshare', '-n']`: in a network namespace of its own). */
  under?: string[]
  /** Kill the CLI once its stderr matches: a command that should have stopped but goes on ends the test, not hangs it. */
  killWhen?: RegExp
}

/**
 * Runs the built CLI to its exit (a test's own timeout bounds a hang): its exit code (null when a signal ended it)
 * and what it wrote to stderr.
 */
export function runCli(args: string[], opts: RunCliOptions = {}): Promise<{ code: number | null; stderr: string }> {
  const [command, ...prefix] = [...(opts.under ?? []), process.execPath]
  const child = spawn(command ?? process.execPath, [...prefix, BUILT_CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    if (opts.killWhen?.test(stderr) === true) child.kill('SIGKILL')
  })
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })))
}
