import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * This thread's V8 full collection, which Node exposes only under --expose-gc: taken from a context made once the
 * flag is on (node/settle.ts says why the node collects). The flag is the process's and stays on: threads take their
 * collections at the same moments (a node going quiet), and one thread turning it off between another's setting it and
 * making its context left that thread without `gc` (a serving thread died of it).
 */
export function fullCollection(): () => void {
  if (globalThis.gc !== undefined) return globalThis.gc
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}
