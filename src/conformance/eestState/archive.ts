import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { REPO_ROOT } from '../../testing/paths.js'
import type { CaseKey } from './fixture.js'

// The fixtures stay packed in the repository (test/fixtures/eest-state/state_tests.tar.gz, 11 MB); the first run
// unpacks them with the system tar into node_modules/.cache/sponge-eest-state/<archive sha256 prefix>/ (230 MB,
// outside the work tree) and writes the index of every case. The unpack happens in a folder of its own that is
// renamed into place once the index and the marker are written, so a run that was stopped halfway, or two runs at
// once, never leave a half-unpacked set that looks finished.

export const DEFAULT_ARCHIVE = join(REPO_ROOT, 'test/fixtures/eest-state/state_tests.tar.gz')
export const DEFAULT_CACHE = join(REPO_ROOT, 'node_modules/.cache/sponge-eest-state')
const MARKER = 'unpacked'
const INDEX = 'index.json'

/** The cases of one fixture file, as the index lists them: [test, fork, post entry index]. */
export interface IndexedFile {
  file: string
  cases: [test: string, fork: string, index: number][]
}

export interface Fixtures {
  /** Where the files are: join(dir, key.file). */
  dir: string
  /** Every file with its cases, files in path order, cases in each file's order. */
  files: IndexedFile[]
}

function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/** Every .json file under dir, relative and with `/`, in path order. */
function jsonFiles(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith('.json')) out.push(relative(dir, path).split(sep).join('/'))
    }
  }
  walk(dir)
  return out.sort()
}

/**
 * A file's cases: per test, per fork of its post, per entry. Only that much of the format is read here; the rest is
 * checked when a case runs, so that a malformed test fails as a case instead of stopping the unpack.
 */
function indexFile(file: string, text: string): IndexedFile {
  const json: unknown = JSON.parse(text)
  if (typeof json !== 'object' || json === null) throw new Error(`${file}: not an object of tests`)
  const cases: IndexedFile['cases'] = []
  for (const [test, body] of Object.entries(json)) {
    const post: unknown = typeof body === 'object' && body !== null ? (body as { post?: unknown }).post : undefined
    if (typeof post !== 'object' || post === null) throw new Error(`${file}: test ${test} has no post`)
    for (const [fork, entries] of Object.entries(post)) {
      const n = Array.isArray(entries) ? entries.length : 0
      for (let index = 0; index < n; index++) cases.push([test, fork, index])
    }
  }
  return { file, cases }
}

function buildIndex(dir: string): IndexedFile[] {
  return jsonFiles(dir).map((file) => indexFile(file, readFileSync(join(dir, file), 'utf8')))
}

/**
 * The unpacked fixtures of an archive, unpacking it and indexing its cases on first use (a few seconds), and what
 * the index says is in them. `note` hears what is being done when it takes a while.
 */
export function openFixtures(archive = DEFAULT_ARCHIVE, cacheRoot = DEFAULT_CACHE, note: (line: string) => void = () => undefined): Fixtures {
  if (!existsSync(archive)) throw new Error(`the state tests archive is missing: ${archive} (git checkout -- test/fixtures/eest-state)`)
  const dir = join(cacheRoot, sha256File(archive).slice(0, 16))
  if (!existsSync(join(dir, MARKER))) {
    note(`unpacking ${relative(REPO_ROOT, archive)} into ${dir}`)
    mkdirSync(cacheRoot, { recursive: true })
    const work = `${dir}.partial-${process.pid}`
    rmSync(work, { recursive: true, force: true })
    mkdirSync(work)
    const tar = spawnSync('tar', ['xzf', archive, '-C', work], { stdio: ['ignore', 'ignore', 'pipe'] })
    if (tar.error !== undefined || tar.status !== 0) {
      rmSync(work, { recursive: true, force: true })
      throw new Error(`tar xzf ${archive} failed: ${tar.error?.message ?? tar.stderr.toString().trim()}`)
    }
    writeFileSync(join(work, INDEX), JSON.stringify(buildIndex(work)))
    writeFileSync(join(work, MARKER), `${new Date().toISOString()} ${archive}\n`)
    // A folder left without its marker (an older, stopped run) gives way; one another run finished first stays.
    if (existsSync(dir) && !existsSync(join(dir, MARKER))) rmSync(dir, { recursive: true, force: true })
    try {
      renameSync(work, dir)
    } catch (e) {
      rmSync(work, { recursive: true, force: true })
      if (!existsSync(join(dir, MARKER))) throw e
    }
  }
  return { dir, files: JSON.parse(readFileSync(join(dir, INDEX), 'utf8')) as IndexedFile[] }
}

/** The fixtures in an unpacked directory (the legacy tests, say), indexed in memory: nothing is written. */
export function openDirectory(dir: string): Fixtures {
  if (!existsSync(dir)) throw new Error(`no such fixtures directory: ${dir}`)
  return { dir, files: buildIndex(dir) }
}

/** The cases of the index, one key each, in index order. */
export function allCases(files: readonly IndexedFile[]): CaseKey[] {
  return files.flatMap((f) => f.cases.map(([test, fork, index]) => ({ file: f.file, test, fork, index })))
}

/** The cases whose file's relative path or whose test name the pattern matches. */
export function selectCases(files: readonly IndexedFile[], only: RegExp | undefined): CaseKey[] {
  const cases = allCases(files)
  return only === undefined ? cases : cases.filter((c) => only.test(c.file) || only.test(c.test))
}

/** A small deterministic PRNG (mulberry32): the same seed, the same sequence, on every platform. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * `n` cases drawn without repetition from `cases`, the same ones for the same seed and list (a partial
 * Fisher-Yates shuffle), returned in the list's order so that a file's cases run together. All of them when n ≥ the
 * list's length.
 */
export function sampleCases<T>(cases: readonly T[], n: number, seed: number): T[] {
  if (n >= cases.length) return [...cases]
  const order = cases.map((_, i) => i)
  const random = mulberry32(seed)
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (order.length - i))
    const t = order[i]!
    order[i] = order[j]!
    order[j] = t
  }
  return order
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => cases[i]!)
}
