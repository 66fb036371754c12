import { rmSync } from 'node:fs'
import { RLP } from '@ethereumjs/rlp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { devBlobTx } from '../testing/blobTx.js'
import { BUILT_CLI, tempDatadir } from '../testing/paths.js'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'
import { bytesToHex, concatBytes, hexToBytes } from '../util/hex.js'

// Issue 31 item 7: on a fresh node the first blob transaction took 8-10 s (viem's 10 s timeout fired), later ones
// about a second. c-kzg's trusted setup (~2.5 s here) was loaded on first use in each thread that needed it: the
// public worker that checked the sidecar and gave it cell proofs, then the engine's, whose build checked it again.
// The node now loads it once, at start-up, in the background, on the thread that does the pool's KZG work, and the
// builder no longer checks what the pool checked. (The times are bench:load's: bench/blobSends.ts.)

const LOADED = 'KZG trusted setup loaded'
const spec = new ChainSpec(devGenesis())
let node: SpawnedNode
let datadir: string

/** Resolves once the node's output says `text` (it comes on stderr/stdout; bounded by the test's timeout). */
function said(n: SpawnedNode, text: string): Promise<void> {
  return new Promise((resolve) => {
    const look = () => {
      if (!n.log().includes(text)) return
      n.process.stdout?.off('data', look)
      n.process.stderr?.off('data', look)
      resolve()
    }
    n.process.stdout?.on('data', look)
    n.process.stderr?.on('data', look)
    look()
  })
}

async function rpc<T>(method: string, params: unknown[]): Promise<{ result?: T; error?: { message: string } }> {
  const res = await fetch(node.httpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as { result?: T; error?: { message: string } }
}

function blobTx(nonce: bigint, sidecar: 0 | 1): string {
  const common = spec.commonAt(0n, 0n).copy()
  // A Prague common makes the version-0 wrapper (blob proofs) that most tools still send; the node converts it.
  if (sidecar === 0) common.setHardfork('prague')
  const tx = devBlobTx(common, 6, `first blob send ${nonce}`, nonce)
  return bytesToHex(tx.serializeNetworkWrapper())
}

beforeAll(async () => {
  datadir = tempDatadir('firstblob')
  node = await spawnNode(['--chain', 'dev', '--datadir', datadir, '--workers', '1'], 120_000, BUILT_CLI)
})
afterAll(async () => {
  await node?.stop()
  rmSync(datadir, { recursive: true, force: true })
})

describe('the first blob transaction on a fresh node', () => {
  it('finds the KZG setup loaded at start-up, once, and is mined like the ones after it', async () => {
    const raws = [blobTx(0n, 0), blobTx(1n, 1), blobTx(2n, 0)]
    // Loaded with no blob transaction sent: start-up did it.
    await said(node, LOADED)
    for (const raw of raws) {
      const sent = await rpc<string>('eth_sendRawTransaction', [raw])
      expect(sent.error).toBeUndefined()
      // Dev mode makes the block before it answers.
      const receipt = await rpc<{ status: string; blobGasUsed: string }>('eth_getTransactionReceipt', [sent.result])
      expect(receipt.result).toMatchObject({ status: '0x1', blobGasUsed: '0x20000' })
    }
    // The sends loaded no setup of their own.
    expect(node.log().split(LOADED).length - 1).toBe(1)
  }, 120_000)

  it('refuses a sidecar whose proof does not hold, with geth’s words', async () => {
    const good = hexToBytes(blobTx(3n, 1))
    // Two cell proofs swapped: each is a valid point, neither is its cell's proof.
    const wrapper = RLP.decode(good.subarray(1)) as [Uint8Array[], Uint8Array, Uint8Array[], Uint8Array[], Uint8Array[]]
    const proofs = wrapper[4]
    ;[proofs[0], proofs[1]] = [proofs[1]!, proofs[0]!]
    const raw = bytesToHex(concatBytes(Uint8Array.of(3), RLP.encode(wrapper)))
    const sent = await rpc<string>('eth_sendRawTransaction', [raw])
    expect(sent.error?.message).toBe('KZG verification error: invalid cell proof')
  })
})
