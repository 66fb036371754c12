import { spawn } from 'node:child_process'
import { BUILT_CLI } from './paths.js'

/** Runs the built CLI to its exit (a test's own timeout bounds a hang): its exit code and what it wrote to stderr. */
export function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BUILT_CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
  })
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })))
}
