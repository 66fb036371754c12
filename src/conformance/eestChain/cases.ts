import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { FixtureCase } from './fixture.js'

// The blockchain_test cases under a directory of fixture files (erigontech/eest-fixtures' layout:
// blockchain_tests/<fork>/<eip>/<test>.json, blockchain_tests_devnet/for_<fork>/…): found, selected, read a file at a time.

export interface CaseRef {
  /** `<file relative to the root>::<test name>`: the id test/fixtures/conformance/eest/cases.txt uses. */
  id: string
  file: string
  name: string
  /** The report's grouping: the file's first two folders (`blockchain_tests/prague`). */
  folder: string
}

/** The .json files under `root`, sorted, relative to it with `/` separators. */
export function fixtureFiles(root: string): string[] {
  const out: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry)
      if (statSync(path).isDirectory()) walk(path)
      else if (entry.endsWith('.json')) out.push(relative(root, path).split(sep).join('/'))
    }
  }
  walk(root)
  return out
}

/** A fixture file's cases: test name → case. A file that is no JSON object (an LFS pointer left behind) has none. */
export function readFixtureFile(root: string, file: string): Record<string, FixtureCase> {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(join(root, file), 'utf8'))
  } catch {
    return {}
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, FixtureCase>) : {}
}

export function folderOf(file: string): string {
  return file.split('/').slice(0, 2).join('/')
}

/** The cases of the files whose id the pattern matches (every case without one). */
export function indexCases(root: string, files: readonly string[], only: RegExp | undefined): CaseRef[] {
  const out: CaseRef[] = []
  for (const file of files) {
    for (const name of Object.keys(readFixtureFile(root, file))) {
      const id = `${file}::${name}`
      if (only === undefined || only.test(id)) out.push({ id, file, name, folder: folderOf(file) })
    }
  }
  return out
}
