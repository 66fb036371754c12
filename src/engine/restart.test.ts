import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'
import { BUILT_CLI, tempDatadir } from '../testing/paths.js'
import { payloadAttributes } from '../testing/engineBlocks.js'
import { TEST_JWT_SECRET, ZERO32 } from '../testing/testNode.js'
import { signJwt } from './jwt.js'

// A consensus client keeps driving a node that was killed and restarted: the node picks up at its stored head,
// answers SYNCING for heads it never saw, and a build in flight at the kill is simply gone.

async function engine<T>(node: SpawnedNode, method: string, params: unknown[]): Promise<{ result?: T; error?: { code: number } }> {
  const res = await fetch(node.authUrl!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${signJwt(TEST_JWT_SECRET)}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as { result?: T; error?: { code: number } }
}

const fc = (head: string) => ({ headBlockHash: head, safeBlockHash: ZERO32, finalizedBlockHash: ZERO32 })

describe('restart under a consensus client', () => {
  it('picks up at the stored head; a build in flight at the kill is gone', async () => {
    const datadir = tempDatadir('restart')
    const secret = join(datadir, 'jwt.hex')
    writeFileSync(secret, TEST_JWT_SECRET.toString('hex'))
    const args = ['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', join(datadir, 'db'), '--no-mining', '--authrpc.jwtsecret', secret]
    let node = await spawnNode(args, 120_000, BUILT_CLI)
    let head = (await engine<{ hash: string }>(node, 'eth_getBlockByNumber', ['latest', false])).result!.hash
    for (let i = 1; i <= 2; i++) {
      const id = (await engine<{ payloadId: string }>(node, 'engine_forkchoiceUpdatedV3', [fc(head), payloadAttributes(100 * i)])).result!.payloadId
      const p = (await engine<{ executionPayload: { blockHash: string } }>(node, 'engine_getPayloadV5', [id])).result!.executionPayload
      expect((await engine<{ status: string }>(node, 'engine_newPayloadV4', [p, [], ZERO32, []])).result?.status).toBe('VALID')
      expect(
        (await engine<{ payloadStatus: { status: string } }>(node, 'engine_forkchoiceUpdatedV3', [fc(p.blockHash), null])).result?.payloadStatus
          .status,
      ).toBe('VALID')
      head = p.blockHash
    }
    const inFlight = (await engine<{ payloadId: string }>(node, 'engine_forkchoiceUpdatedV3', [fc(head), payloadAttributes(300)])).result!.payloadId
    await new Promise<void>((resolve) => {
      node.process.once('exit', () => resolve())
      node.process.kill('SIGKILL')
    })
    node = await spawnNode(args, 120_000, BUILT_CLI)
    try {
      expect((await engine<string>(node, 'eth_blockNumber', [])).result).toBe('0x2')
      expect(
        (await engine<{ payloadStatus: { status: string; latestValidHash: string } }>(node, 'engine_forkchoiceUpdatedV3', [fc(head), null])).result
          ?.payloadStatus,
      ).toMatchObject({
        status: 'VALID',
        latestValidHash: head,
      })
      const unknown = await engine<{ payloadStatus: { status: string } }>(node, 'engine_forkchoiceUpdatedV3', [fc(`0x${'77'.repeat(32)}`), null])
      expect(unknown.result?.payloadStatus.status).toBe('SYNCING')
      expect((await engine(node, 'engine_getPayloadV5', [inFlight])).error?.code).toBe(-38001)
      // The client asks again, and building works as before.
      const again = (await engine<{ payloadId: string }>(node, 'engine_forkchoiceUpdatedV3', [fc(head), payloadAttributes(300)])).result!.payloadId
      const p = (await engine<{ executionPayload: { blockNumber: string } }>(node, 'engine_getPayloadV5', [again])).result!.executionPayload
      expect(p.blockNumber).toBe('0x3')
    } finally {
      await node.stop()
    }
  })
})
