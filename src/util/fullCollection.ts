import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/**
 * This thread's V8 full collection, which Node exposes only under --expose-gc: taken from a context made while the
 * flag is on (node/settle.ts says why the node collects).
 */
export function fullCollection(): () => void {
  if (globalThis.gc !== undefined) return globalThis.gc
  setFlagsFromString('--expose-gc')
  try {
    return runInNewContext('gc') as () => void
  } finally {
    setFlagsFromString('--no-expose-gc')
  }
}
