import { randomBytes } from 'node:crypto'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { runCli } from '../testing/runCli.js'

// Issue 31, item 5: a random, empty or truncated chain.mdb killed `sponge node`, `sponge rpc` and `sponge import`
// with SIGSEGV or SIGBUS and no word (LMDB maps the file and trusts the page numbers in it). Each now stops at start
// with one line naming the file, exit 1, as the other start-up errors.

const genesis = rpcCompatPath('genesis.json')

const commands = {
  node: (datadir: string) =>
    runCli(['node', '--chain', genesis, '--datadir', datadir, '--http.port', '0', '--authrpc.port', '0', '--workers', '1'], {
      // Should it not stop, it is killed once it serves: the test fails rather than hangs.
      killWhen: /"msg":"serving"/,
    }),
  rpc: (datadir: string) =>
    runCli(['rpc', '--chain', genesis, '--datadir', datadir, '--http.port', '0', '--workers', '1'], {
      killWhen: /"msg":"serving"|waiting for a node/,
    }),
  import: (datadir: string) => runCli(['import', '--chain', genesis, '--datadir', datadir, '--no-progress', rpcCompatPath('chain.rlp')]),
}

/** A store as `sponge import` leaves it, to damage. */
let stored: Buffer

beforeAll(async () => {
  const datadir = tempDatadir('damaged-source')
  const made = await commands.import(datadir)
  expect(made.code).toBe(0)
  stored = readFileSync(join(datadir, 'chain.mdb'))
}, 120_000)

const damage = {
  'random bytes': () => randomBytes(1 << 20),
  'an empty file': () => Buffer.alloc(0),
  // Its two meta pages only: every page they name is past the end.
  'a file truncated to its meta pages': () => stored.subarray(0, 8192),
}

describe('a damaged chain.mdb is one line and exit 1, not a signal', () => {
  for (const [what, bytes] of Object.entries(damage)) {
    for (const [name, run] of Object.entries(commands)) {
      it(`${name}: ${what}`, async () => {
        const datadir = tempDatadir(`damaged-${name}`)
        const file = join(datadir, 'chain.mdb')
        writeFileSync(file, bytes())
        const { code, stderr } = await run(datadir)
        expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^fatal: ${file} is damaged, not a store Sponge can open: .+`))])
        expect(code).toBe(1)
      })
    }
  }

  it('the file is left as it was (nothing is written to a damaged store)', async () => {
    const datadir = tempDatadir('damaged-untouched')
    const file = join(datadir, 'chain.mdb')
    writeFileSync(file, stored.subarray(0, 8192))
    for (const run of Object.values(commands)) expect((await run(datadir)).code).toBe(1)
    expect(readFileSync(file).equals(stored.subarray(0, 8192))).toBe(true)
  })

  it('a whole store still opens: the node serves it and the import finds every block there', async () => {
    const datadir = tempDatadir('damaged-whole')
    writeFileSync(join(datadir, 'chain.mdb'), stored)
    const imported = await commands.import(datadir)
    expect(imported.stderr).toContain('imported 0 blocks (54 already known)')
    expect(imported.code).toBe(0)
    const copy = tempDatadir('damaged-whole-copy')
    copyFileSync(join(datadir, 'chain.mdb'), join(copy, 'chain.mdb'))
    const served = await commands.node(copy)
    // Killed once it served: the check let it start.
    expect(served.stderr).toContain('"msg":"serving"')
  })
})
