import { rmSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { tempDatadir } from '../testing/paths.js'
import { signRawTx } from '../testing/rawTx.js'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'
import { hexToBytes } from '../util/hex.js'

// --rpc.allow-unprotected-txs, through the built CLI: without it a legacy transaction without EIP-155 replay
// protection is refused over RPC with geth's message; with it, it is mined.

const running: { node: SpawnedNode; datadir: string }[] = []
afterAll(async () => {
  for (const { node, datadir } of running) {
    await node.stop()
    rmSync(datadir, { recursive: true, force: true })
  }
})

async function devNode(flags: string[]): Promise<SpawnedNode> {
  const datadir = tempDatadir('unprotected')
  const node = await spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', datadir, '--workers', '1', ...flags])
  running.push({ node, datadir })
  return node
}

async function call<T>(node: SpawnedNode, method: string, params: unknown[]): Promise<{ result?: T; error?: { code: number; message: string } }> {
  const res = await fetch(node.httpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as { result?: T; error?: { code: number; message: string } }
}

/** A transfer from dev account 0, signed without a chain id (v = 27 or 28). */
const unprotected = signRawTx(
  {
    type: 0,
    chainId: undefined,
    nonce: 0n,
    maxFee: 10_000_000_000n,
    gasLimit: 21_000n,
    to: devAccounts()[9]!.address,
    value: 1n,
    data: new Uint8Array(),
  },
  hexToBytes(devAccounts()[0]!.privateKey),
)

describe('--rpc.allow-unprotected-txs', () => {
  it("off (the default): refused over RPC with -32000 and geth's message", async () => {
    const node = await devNode([])
    expect((await call(node, 'eth_sendRawTransaction', [unprotected])).error).toEqual({
      code: -32000,
      message: 'only replay-protected (EIP-155) transactions allowed over RPC',
    })
  })

  it('on: taken and mined (the send is answered once its block is made)', async () => {
    const node = await devNode(['--rpc.allow-unprotected-txs'])
    const sent = await call<string>(node, 'eth_sendRawTransaction', [unprotected])
    expect(sent.error).toBeUndefined()
    const receipt = await call<{ status: string } | null>(node, 'eth_getTransactionReceipt', [sent.result])
    expect(receipt.result?.status).toBe('0x1')
  })
})
