import { readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { REPO_ROOT } from './paths.js'

// vitest's global setup. Tests import src/, but workers, spawned nodes and the conformance runner load the build in
// dist/: a build older than a source file would test stale code without saying so. This refuses to run instead.

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return sources(path)
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : []
  })
}

/** The source files whose build in dist/ is missing or older than they are. */
export function staleBuilds(root = REPO_ROOT): string[] {
  const src = join(root, 'src')
  return sources(src).filter((file) => {
    const built = join(root, 'dist', relative(src, file).replace(/\.ts$/, '.js'))
    try {
      return statSync(built).mtimeMs < statSync(file).mtimeMs
    } catch {
      return true
    }
  })
}

export default function setup(): void {
  const stale = staleBuilds()
  if (stale.length === 0) return
  const shown = stale.slice(0, 5).map((f) => relative(REPO_ROOT, f))
  throw new Error(
    `dist/ is older than src/ (${shown.join(', ')}${stale.length > 5 ? `, … ${stale.length} files` : ''}): workers and spawned nodes run dist/. Run \`npm run build\` first (npm test does).`,
  )
}
