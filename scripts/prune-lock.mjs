// The npm registry reachable here lacks some platform-only optional packages (e.g. msgpackr-extract's darwin and
// win32 builds); `npm install` then writes a lock whose optionalDependencies name packages it has no entry for, and
// `npm ci` refuses it. Run after changing dependencies: drops those dangling optional names from the lock.
import { readFileSync, writeFileSync } from 'node:fs'

const path = new URL('../package-lock.json', import.meta.url)
const lock = JSON.parse(readFileSync(path, 'utf8'))
const names = Object.keys(lock.packages)
let pruned = 0
for (const entry of Object.values(lock.packages)) {
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
    if (!names.some((n) => n.endsWith(`node_modules/${dep}`))) {
      delete entry.optionalDependencies[dep]
      pruned++
    }
  }
}
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`)
console.log(`pruned ${pruned} dangling optional dependencies`)
