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
