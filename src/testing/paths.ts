import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Test helpers' view of the repository: where the shared conformance data is, and fresh temporary datadirs. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))
export const CONFORMANCE_DIR = resolve(process.env.SPONGE_CONFORMANCE_DIR ?? join(REPO_ROOT, '../shared/conformance'))
export const RPC_COMPAT_DIR = join(CONFORMANCE_DIR, 'rpc-compat')

export function tempDatadir(label: string): string {
  return mkdtempSync(join(tmpdir(), `sponge-${label}-`))
}

/** The built command line (tests run from src/, the node they spawn is the build in dist/). */
export const BUILT_CLI = join(REPO_ROOT, 'dist/cli/main.js')
