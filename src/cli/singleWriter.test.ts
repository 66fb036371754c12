import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { runCli } from '../testing/runCli.js'
import { spawnNode } from '../testing/spawnNode.js'

// Issue 21, item 1: a second node on a datadir in use started and served, and the two corrupted it (transactions
// acknowledged by one vanished, the canonical chain stopped linking). geth refuses: "datadir already used by another
// process". So does Sponge now, for `sponge node` and `sponge import` alike, at once and in one line.
//
// Issue 31, item 1: that lock was an abstract Unix socket, which lives in a network namespace. A second node in another
// namespace (two containers on one volume; `unshare -n` here) opened the datadir in use, and any local user could
// bind the socket's name first and keep the node from its own datadir.

/** Whether this sandbox lets us make a network namespace (root, or user namespaces allowed). */
const canUnshare = spawnSync('unshare', ['-n', 'true']).status === 0

describe('one writer per datadir', () => {
  it('refuses a second node and an import while a node runs on the datadir, and serves again once it is gone', async () => {
    const datadir = tempDatadir('one-writer')
    const first = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--no-mining', '--workers', '1'])
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
    const again = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--no-mining', '--workers', '1'])
    await again.stop()
  })

  it.skipIf(!canUnshare)('refuses a second node and an import started in another network namespace (unshare -n)', async () => {
    const datadir = tempDatadir('one-writer-netns')
    const first = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--no-mining', '--workers', '1'])
    try {
      const second = await runCli(
        ['node', '--chain', 'dev', '--datadir', datadir, '--http.port', '0', '--authrpc.port', '0', '--workers', '1'],
        // Before the fix it opened the datadir and served: killed then, so that the test fails rather than hangs.
        { under: ['unshare', '-n'], killWhen: /"msg":"serving"/ },
      )
      expect(second.stderr.trim().split('\n')).toEqual([`fatal: datadir ${datadir} already used by another process`])
      expect(second.code).toBe(1)
      const imported = await runCli(['import', '--chain', 'dev', '--datadir', datadir, rpcCompatPath('chain.rlp')], {
        under: ['unshare', '-n'],
      })
      expect(imported.stderr.trim().split('\n')).toEqual([`fatal: datadir ${datadir} already used by another process`])
      expect(imported.code).toBe(1)
    } finally {
      await new Promise<void>((resolve) => {
        first.process.once('exit', () => resolve())
        first.process.kill('SIGKILL')
      })
    }
  })

  it('starts although another process bound the abstract socket name the lock used to be', async () => {
    const datadir = tempDatadir('one-writer-squatted')
    const st = statSync(datadir)
    const squatter = createServer()
    await new Promise<void>((resolve, reject) => {
      squatter.once('error', reject)
      squatter.listen({ path: `\0sponge-datadir-${st.dev}-${st.ino}` }, resolve)
    })
    try {
      const node = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--no-mining', '--workers', '1'])
      await node.stop()
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()))
    }
  })
})
