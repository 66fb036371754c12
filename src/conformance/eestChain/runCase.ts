import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GethGenesisFile } from '../../chain/genesis.js'
import { ChainSpec } from '../../chain/spec.js'
import { startNode } from '../../node/node.js'
import { spawnNode } from '../../testing/spawnNode.js'
import { silentLogger } from '../../util/logger.js'
import { httpCaseClient } from '../eest.js'
import { type EngineCase, runEngineCase } from '../engineCase.js'

/**
 * How each case's node runs: `inprocess`, startNode in this process (the node the CLI starts, its Engine API and
 * JSON-RPC on real sockets, without a process start per case), or `spawn`, `sponge node` from dist/ per case.
 */
export type NodeMode = 'inprocess' | 'spawn'

/** Runs a converted case on a fresh node with its genesis; why it failed, or undefined when it passed. */
export async function runConvertedCase(genesis: GethGenesisFile, c: EngineCase, mode: NodeMode): Promise<string | undefined> {
  const work = mkdtempSync(join(tmpdir(), 'sponge-eestchain-'))
  const secret = randomBytes(32)
  const secretFile = join(work, 'jwt.hex')
  writeFileSync(secretFile, secret.toString('hex'))
  try {
    if (mode === 'spawn') {
      writeFileSync(join(work, 'genesis.json'), JSON.stringify(genesis))
      const node = await spawnNode([
        '--chain',
        join(work, 'genesis.json'),
        '--datadir',
        join(work, 'data'),
        '--authrpc.jwtsecret',
        secretFile,
        '--workers',
        '1',
        '--http.threads',
        '1',
        // A handful of blocks a case, no blob sent: the warm-up's second of CPU and the KZG setup's three would
        // outweigh it.
        '--no-warmup',
        '--no-kzg-preload',
      ])
      try {
        return await runEngineCase(c, httpCaseClient(node.httpUrl, node.authUrl!, secret))
      } finally {
        await node.stop()
      }
    }
    const node = await startNode(new ChainSpec(genesis), {
      datadir: join(work, 'data'),
      http: { host: '127.0.0.1', port: 0, apis: ['eth'] },
      httpThreads: 1,
      authrpc: { host: '127.0.0.1', port: 0, jwtSecretPath: secretFile },
      workers: 1,
      log: silentLogger,
      showProgress: false,
    })
    try {
      return await runEngineCase(c, httpCaseClient(`http://127.0.0.1:${node.httpPort}`, `http://127.0.0.1:${node.authPort}`, secret))
    } finally {
      await node.close()
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
