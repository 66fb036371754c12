// Run by `npm ci` (the prepare step), before the build. Rewrites three expressions of EthereumJS 10.1.3 that Node 20's
// V8 runs pathologically slowly on every call frame or word, each into one that builds the same value:
// - a literal that spreads one object and then another (`{ ...a, ...b }`) takes a slow path that makes a new hidden
//   class per property copied: ~30 µs and ~7.5 KB of garbage for a 19-field object, where Object.assign onto a
//   fresh plain object (the same own enumerable properties, in the same order) takes ~0.7 µs. @ethereumjs/evm makes
//   two per call frame: the message it hands the interpreter, and the `runState` it returns.
// - @ethereumjs/util's setLengthLeft/Right pad through array spreads (an iterator per byte); a zeroed array with the
//   input set into it is the same bytes. They pad every stack word turned into an address or a storage key.
// And one bug that costs a trie write per SSTORE: @ethereumjs/statemanager's putStorage reads
// `caches.storage.put(…) ?? writeContractStorage(…)`, but put returns nothing, so every SSTORE also walked, rewrote
// and re-hashed the account's storage trie (and its storageRoot) at once — the write the cache holds until the
// block's one flush anyway, which writes the same slots to the same trie. Now it goes to the cache only, as the
// code meant; without caches it still goes to the trie.
// Measured on a bare warm EthereumJS runCall of an ERC-20 balanceOf: ~160 → ~85 µs. The script is idempotent and
// fails loudly if a package's text is not what it expects (a new version must be looked at again). `--undo` puts the
// packages' own text back (to measure both side by side).
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const PATCHES = [
  {
    pkg: '@ethereumjs/evm',
    file: 'evm.js',
    what: "the interpreter's message in _executeCall",
    from: `this.runInterpreter({
                ...{ codeAddress: message.codeAddress },
                ...message,
                gasLimit,
            }, `,
    to: `this.runInterpreter(Object.assign({ codeAddress: message.codeAddress }, message, { gasLimit }), `,
  },
  {
    pkg: '@ethereumjs/evm',
    file: 'evm.js',
    what: "runInterpreter's runState",
    from: `runState: {
                ...interpreterRes.runState,
                ...result,
                ...interpreter._env,
            },`,
    to: `runState: Object.assign({}, interpreterRes.runState, result, interpreter._env),`,
  },
  ...['esm', 'cjs'].map((build) => {
    const rlp = build === 'esm' ? 'RLP' : 'rlp_1.RLP'
    return {
      pkg: '@ethereumjs/statemanager',
      file: 'merkleStateManager.js',
      builds: [build],
      what: "putStorage's cache-or-trie choice",
      from: `        this._caches?.storage?.put(address, key, ${rlp}.encode(value)) ??
            (await this._writeContractStorage(address, account, key, value));`,
      to: `        if (this._caches?.storage !== undefined)
            this._caches.storage.put(address, key, ${rlp}.encode(value));
        else
            await this._writeContractStorage(address, account, key, value);`,
    }
  }),
  {
    pkg: '@ethereumjs/util',
    file: 'bytes.js',
    what: "setLength's padding",
    from: `        return right
            ? new Uint8Array([...msg, ...new Uint8Array(length - msg.length)])
            : new Uint8Array([...new Uint8Array(length - msg.length), ...msg]);`,
    to: `        const padded = new Uint8Array(length);
        padded.set(msg, right ? 0 : length - msg.length);
        return padded;`,
  },
]

const require = createRequire(import.meta.url)
const undo = process.argv.includes('--undo')

for (const pkg of new Set(PATCHES.map((p) => p.pkg))) {
  // The packages export only their entry point (dist/cjs/index.js): the package folder is three levels up from it.
  const pkgDir = dirname(dirname(dirname(require.resolve(pkg))))
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
  if (version !== '10.1.3') throw new Error(`patch-ethereumjs: written for ${pkg} 10.1.3, found ${version}`)
  for (const build of ['esm', 'cjs']) {
    for (const file of new Set(PATCHES.filter((p) => p.pkg === pkg).map((p) => p.file))) {
      const path = join(pkgDir, 'dist', build, file)
      let text = readFileSync(path, 'utf8')
      for (const p of PATCHES.filter((q) => q.pkg === pkg && q.file === file && (q.builds ?? [build]).includes(build))) {
        const [from, to] = undo ? [p.to, p.from] : [p.from, p.to]
        if (text.includes(to)) continue
        const at = text.indexOf(from)
        if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`patch-ethereumjs: ${p.what} not found once in ${path}`)
        text = text.replace(from, to)
      }
      writeFileSync(path, text)
    }
  }
}
console.log(
  `patch-ethereumjs: ${new Set(PATCHES.map((p) => p.what)).size} rewrites ${undo ? 'undone' : 'in place'} (evm call frames, util padding, statemanager putStorage)`,
)
