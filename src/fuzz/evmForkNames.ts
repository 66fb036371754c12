import { Fork } from '../chain/evmFork.js'

// The fuzzer's fork names, both ways: `--fork cancun`, and the name a printed case carries.

const NAMES: readonly [string, Fork][] = Object.entries(Fork)

export function forkName(fork: Fork): string {
  return NAMES.find(([, f]) => f === fork)![0]
}

/** The fork named (as Fork's keys: frontier, tangerineWhistle, …), case-insensitive; undefined if none. */
export function forkNamed(name: string): Fork | undefined {
  return NAMES.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1]
}
