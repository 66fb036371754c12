import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { runCli } from '../testing/runCli.js'
import { spawnNode } from '../testing/spawnNode.js'

// Issue 21, item 7, as reported: a datadir that cannot be created hung with no output; a JWT secret path that cannot
// be created announced HTTP and then hung; a missing or invalid genesis, a port in use, a datadir of another chain
// and a bad import file printed their message with a JavaScript stack. Each must be one line and a non-zero exit.

const node = (...args: string[]) => runCli(['node', '--http.port', '0', '--authrpc.port', '0', '--workers', '1', ...args])

/** Exit 1 and exactly one line on stderr, matching `line`. */
async function failsInOneLine(run: Promise<{ code: number | null; stderr: string }>, line: RegExp): Promise<void> {
  const { code, stderr } = await run
  expect(code).toBe(1)
  const lines = stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(line)
}

describe('start-up errors', () => {
  it('a datadir that cannot be created', async () => {
    await failsInOneLine(node('--chain', 'dev', '--datadir', '/proc/sponge'), /^fatal: ENOENT: .*'\/proc\/sponge'/)
  })

  it('a JWT secret that cannot be written: before any port is announced', async () => {
    await failsInOneLine(
      node('--chain', 'dev', '--datadir', tempDatadir('jwt'), '--authrpc.jwtsecret', '/proc/sponge/jwt.hex'),
      /^fatal: ENOENT: .*\/proc\/sponge/,
    )
  })

  it('a missing genesis file, and one that is not JSON', async () => {
    await failsInOneLine(
      node('--chain', '/nonexistent/genesis.json', '--datadir', tempDatadir('g1')),
      /^fatal: ENOENT: .*\/nonexistent\/genesis\.json/,
    )
    const bad = join(tempDatadir('g2'), 'genesis.json')
    writeFileSync(bad, '{bad')
    await failsInOneLine(node('--chain', bad, '--datadir', tempDatadir('g3')), /^fatal: .*genesis\.json: not valid JSON/)
  })

  it('a reader (sponge rpc): over a datadir of another chain; and its usage errors', async () => {
    const datadir = tempDatadir('reader-other-chain')
    const dev = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--no-mining', '--workers', '1'])
    await dev.stop()
    await failsInOneLine(
      runCli(['rpc', '--http.port', '0', '--workers', '1', '--chain', rpcCompatPath('genesis.json'), '--datadir', datadir]),
      /^fatal: datadir .* holds another chain/,
    )
    const usage: [string[], RegExp][] = [
      [['--http.api', 'eth,testing'], /^--http.api: testing is the node's/],
      [['--rpc.upstream', '127.0.0.1:8546'], /^--rpc.upstream: 127.0.0.1:8546 is not an http/],
      [['--authrpc.port', '0'], /authrpc.port/],
    ]
    for (const [flags, line] of usage) {
      const { code, stderr } = await runCli(['rpc', '--datadir', datadir, ...flags])
      expect(code, flags.join(' ')).toBe(2)
      expect(stderr.split('\n')[0], flags.join(' ')).toMatch(line)
    }
  })

  it('a datadir that holds another chain', async () => {
    const datadir = tempDatadir('other-chain')
    const dev = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--no-mining', '--workers', '1'])
    await dev.stop()
    await failsInOneLine(node('--chain', rpcCompatPath('genesis.json'), '--datadir', datadir), /^fatal: datadir .* holds another chain/)
  })

  it('a port in use', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const port = (taken.address() as { port: number }).port
    try {
      await failsInOneLine(
        runCli(['node', '--chain', 'dev', '--datadir', tempDatadir('port'), '--http.port', String(port), '--authrpc.port', '0', '--workers', '1']),
        new RegExp(`^fatal: cannot listen on 127\\.0\\.0\\.1:${port}`),
      )
    } finally {
      taken.close()
    }
  })

  it('a chain file that is not RLP blocks', async () => {
    const file = join(tempDatadir('bad-import'), 'chain.rlp')
    writeFileSync(file, 'not rlp at all')
    await failsInOneLine(
      runCli(['import', '--chain', 'dev', '--datadir', tempDatadir('import'), file]),
      /^fatal: .*chain\.rlp: not a chain file of RLP blocks \(block 0, byte 0/,
    )
  })
})
