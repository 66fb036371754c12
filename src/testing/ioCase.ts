import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** One request/expected-reply pair of an rpc-compat `.io` case. */
export interface Exchange {
  request: string
  expected: string
}

export interface IoCase {
  name: string
  speconly: boolean
  exchanges: Exchange[]
}

export function parseIoCase(name: string, text: string): IoCase {
  const exchanges: Exchange[] = []
  let speconly = false
  let pending: string | undefined
  for (const line of text.split('\n')) {
    if (line.startsWith('//')) {
      if (/^\/\/\s*speconly:/.test(line)) speconly = true
    } else if (line.startsWith('>>')) {
      pending = line.slice(2).trim()
    } else if (line.startsWith('<<')) {
      if (pending === undefined) throw new Error(`${name}: reply without request`)
      exchanges.push({ request: pending, expected: line.slice(2).trim() })
      pending = undefined
    }
  }
  return { name, speconly, exchanges }
}

/** Every `.io` file below `dir`, in path order (the order the reference harness runs them in). */
export function loadIoCases(dir: string): IoCase[] {
  const files: string[] = []
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      const p = join(d, entry)
      if (statSync(p).isDirectory()) walk(p)
      else if (p.endsWith('.io')) files.push(p)
    }
  }
  walk(dir)
  return files.map((f) => parseIoCase(relative(dir, f), readFileSync(f, 'utf8')))
}

/** The folders of tests-surface whose methods Sponge serves (the rest of the wider surface is not built yet). */
export const SURFACE_SERVED = [
  'debug_getRawBlock',
  'debug_getRawHeader',
  'debug_getRawReceipts',
  'debug_getRawTransaction',
  'debug_traceBlockByNumber',
  'debug_traceTransaction',
  'eth_call',
  'eth_createAccessList',
  'eth_getLogs',
  'eth_estimateGas',
  'eth_getProof',
  'eth_getStorageValues',
  'eth_simulateV1',
]

/**
 * The cases the rpc-compat runner replays, in its order: every case of `tests`, and those of `tests-surface` whose
 * method Sponge serves (SURFACE_SERVED: they join the suite method by method, as the methods land), all in path
 * order, as the reference harness runs its one folder.
 */
export function rpcCompatCases(dir: string): IoCase[] {
  return [
    ...loadIoCases(join(dir, 'tests')),
    ...loadIoCases(join(dir, 'tests-surface')).filter((c) => SURFACE_SERVED.includes(c.name.split('/')[0]!)),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
