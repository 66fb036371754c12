import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Test helpers' view of the repository: where the conformance fixtures are, and fresh temporary datadirs. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))

/**
 * The conformance data the tests and runners use, kept in the repository (test/fixtures/conformance; its README
 * gives each set's provenance and licence) so a clone stands alone. SPONGE_CONFORMANCE_DIR points elsewhere.
 */
export const CONFORMANCE_DIR = resolve(process.env.SPONGE_CONFORMANCE_DIR ?? join(REPO_ROOT, 'test/fixtures/conformance'))

/** A path inside the conformance data, checked: a missing fixture names itself and the fix, not a bare ENOENT. */
export function conformancePath(...parts: string[]): string {
  const path = join(CONFORMANCE_DIR, ...parts)
  if (!existsSync(path)) {
    throw new Error(
      `conformance fixture missing: ${path} — restore test/fixtures/conformance from git (git checkout -- test/fixtures), or point SPONGE_CONFORMANCE_DIR at a copy of the conformance data`,
    )
  }
  return path
}

/** A file of the execution-apis chain (genesis.json, chain.rlp, headfcu.json) or a case folder under it. */
export function rpcCompatPath(...parts: string[]): string {
  return conformancePath('rpc-compat', ...parts)
}

export function tempDatadir(label: string): string {
  return mkdtempSync(join(tmpdir(), `sponge-${label}-`))
}

/** The built command line (tests run from src/, the node they spawn is the build in dist/). */
export const BUILT_CLI = join(REPO_ROOT, 'dist/cli/main.js')

/**
 * SPONGE_TEST_HTTP_THREADS=n: every node the tests start (in process or spawned) serves its port on n threads unless
 * the test names a count, so the whole suite runs once with the default (one per core) and once with `1`.
 */
export const TEST_HTTP_THREADS: number | undefined =
  process.env.SPONGE_TEST_HTTP_THREADS === undefined ? undefined : Number(process.env.SPONGE_TEST_HTTP_THREADS)
