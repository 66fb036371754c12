import { describe, expect, it } from 'vitest'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { runCli } from '../testing/runCli.js'
import { spawnNode } from '../testing/spawnNode.js'

// Issue 21, item 1: a second node on a datadir in use started and served, and the two corrupted it (transactions
// acknowledged by one vanished, the canonical chain stopped linking). geth refuses: "datadir already used by another
// process". So does Sponge now, for `sponge node` and `sponge import` alike, at once and in one line.

describe('one writer per datadir', () => {
  it('refuses a second node and an import while a node runs on the datadir, and serves again once it is gone', async () => {
    const datadir = tempDatadir('one-writer')
    const first = await spawnNode(['--chain', 'dev', '--datadir', datadir, '--no-mining', '--workers', '1'])
    try {
      const second = await runCli(['node', '--chain', 'dev', '--datadir', datadir, '--http.port', '0', '--authrpc.port', '0', '--workers', '1'])
      expect(second.code).toBe(1)
      expect(second.stderr.trim().split('\n')).toEqual([`fatal: datadir ${datadir} already used by another process`])
      const imported = await runCli(['import', '--chain', 'dev', '--datadir', datadir, rpcCompatPath('chain.rlp')])
      expect(imported.code).toBe(1)
      expect(imported.stderr).toContain('already used by another process')
      // The first node was not disturbed.
      const reply = await fetch(first.httpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
      })
      expect(await reply.json()).toEqual({ jsonrpc: '2.0', id: 1, result: '0x539' })
    } finally {
      // Killed, not stopped: the lock must not outlive the process that held it.
      await new Promise<void>((resolve) => {
        first.process.once('exit', () => resolve())
        first.process.kill('SIGKILL')
      })
    }
    const again = await spawnNode(['--chain', 'dev', '--datadir', datadir, '--no-mining', '--workers', '1'])
    await again.stop()
  })
})
