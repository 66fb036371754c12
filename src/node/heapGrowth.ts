import { setFlagsFromString } from 'node:v8'

const FLAG = '--heap-growing-percent'

/**
 * Bounds how far V8 lets each heap (this thread's and every worker's: the flag is per process) grow past its live
 * size before a full collection. Left alone, V8 sets the first limits from a start-up heuristic at up to four times
 * the live size: the node's ~20 MiB live per isolate grew to 80–110 MiB of garbage before the first full
 * collection, a minute or two into serving (the soak's +31…+78% climb of anonymous memory). At 1.5× the live size a
 * full collection comes every 20–40 s under the soak's load, and memory stays flat from the first minute.
 * A value given on the command line or in NODE_OPTIONS wins.
 */
function boundHeapGrowth(percent: number): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes(FLAG) || a.includes('--heap_growing_percent'))
  if (!given) setFlagsFromString(`${FLAG}=${percent}`)
}

// On import, not in main(): the limits V8 sets at its first collections, while the modules load, stand until the heap
// reaches them, so the flag must be in place before then. The CLI imports this module first.
boundHeapGrowth(50)
