import { mkdirSync, statSync } from 'node:fs'
import { resolve, sep } from 'node:path'

/**
 * `mkdir -p`, one level at a time. Node 20's `mkdirSync(path, { recursive: true })` never returns for a path under
 * a folder that refuses new entries with ENOENT (`/proc/sponge`: the start-up hung with no output); this fails at
 * once with the errno error, which names the path.
 */
export function makeDirs(path: string): void {
  const parts = resolve(path).split(sep)
  let at = ''
  for (const part of parts.slice(1)) {
    at = `${at}${sep}${part}`
    try {
      if (statSync(at).isDirectory()) continue
    } catch {
      try {
        mkdirSync(at)
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      }
      continue
    }
    mkdirSync(at) // exists and is not a directory: throws EEXIST/ENOTDIR naming it
  }
}
