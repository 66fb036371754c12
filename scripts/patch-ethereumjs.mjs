// Run by `npm ci` (the prepare step), before the build. Rewrites two object literals in @ethereumjs/evm 10.1.3 that
// Node 20's V8 builds pathologically slowly: a literal that spreads one object and then another (`{ ...a, ...b }`)
// takes a slow path that makes a new hidden class per property copied — ~30 µs and ~7.5 KB of garbage for a
// 19-field object, where Object.assign takes ~0.7 µs. EthereumJS makes two such literals for every call frame:
// the message it hands the interpreter, and the `runState` it returns (read by nobody we run). Object.assign onto a
// fresh plain object copies the same own enumerable properties in the same order, so the objects are the same.
// Measured on a bare warm EthereumJS runCall of an ERC-20 balanceOf: ~160 → ~100 µs. The script is idempotent and
// fails loudly if the package's text is not what it expects (a new version must be looked at again). `--undo` puts
// the package's own text back (to measure both side by side).
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const PATCHES = [
  {
    what: "the interpreter's message in _executeCall",
    from: `this.runInterpreter({
                ...{ codeAddress: message.codeAddress },
                ...message,
                gasLimit,
            }, `,
    to: `this.runInterpreter(Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit }), `,
  },
  {
    what: "runInterpreter's runState",
    from: `runState: {
                ...interpreterRes.runState,
                ...result,
                ...interpreter._env,
            },`,
    to: `runState: Object.assign({}, interpreterRes.runState, result, interpreter._env),`,
  },
]

const require = createRequire(import.meta.url)
// The package exports only its entry point (dist/cjs/index.js): its folder is two levels up.
const pkgDir = dirname(dirname(dirname(require.resolve('@ethereumjs/evm'))))
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
if (version !== '10.1.3') throw new Error(`patch-ethereumjs: written for @ethereumjs/evm 10.1.3, found ${version}`)

const undo = process.argv.includes('--undo')
for (const build of ['esm', 'cjs']) {
  const file = join(pkgDir, 'dist', build, 'evm.js')
  let text = readFileSync(file, 'utf8')
  for (const p of PATCHES) {
    const [from, to] = undo ? [p.to, p.from] : [p.from, p.to]
    if (text.includes(to)) continue
    const at = text.indexOf(from)
    if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`patch-ethereumjs: ${p.what} not found once in ${file}`)
    text = text.replace(from, to)
  }
  writeFileSync(file, text)
}
console.log(`patch-ethereumjs: @ethereumjs/evm call frames ${undo ? 'back to double spreads' : 'use Object.assign'}`)
