import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../chain/dev.js'
import { engineBlock, latestHash, makeHead, payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, signedTransfer, startTestNode } from '../testing/testNode.js'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'

// Receipts and transactions by hash are kept by the serving thread once read (store/txReplies.ts). What is kept must
// follow the canonical chain: a reorg that drops the transaction's block answers null, a reorg back answers the block
// again, and a head that extends the chain keeps what was kept.

let n: TestNode
beforeAll(async () => {
  // One thread serving the port: the replies kept are this thread's context's.
  n = await startTestNode({ apis: ['eth', 'testing'], httpThreads: 1 })
})
afterAll(async () => {
  await n.close()
})

let t = Math.floor(Date.now() / 1000)

interface Located {
  blockHash: string | null
}

async function located(hash: string): Promise<{ receipt: string | null; tx: string | null | undefined }> {
  const r = await n.http<Located | null>('eth_getTransactionReceipt', [hash])
  const tx = await n.http<Located | null>('eth_getTransactionByHash', [hash])
  expect(r.error).toBeUndefined()
  expect(tx.error).toBeUndefined()
  return { receipt: r.result?.blockHash ?? null, tx: tx.result === null ? undefined : tx.result!.blockHash }
}

/** A transfer from dev account `from`, sent and made the head's only transaction in a block on the head. */
async function minedTransfer(from: number, value: bigint): Promise<{ hash: string; block: { blockHash: string } }> {
  const parent = await latestHash(n)
  const raw = signedTransfer(n.spec, from, 0, { to: devAccounts()[9]!.address, value })
  const hash = bytesToHex(keccak256(hexToBytes(raw)))
  expect((await n.http('eth_sendRawTransaction', [raw])).result).toBe(hash)
  const block = await engineBlock(n, parent, payloadAttributes(++t))
  expect(block.transactions).toEqual([raw])
  return { hash, block }
}

describe('receipts and transactions kept by hash', () => {
  it('follow a reorg away from their block, back to it, and a head that extends it', async () => {
    const parent = await latestHash(n)
    const { hash, block: b1 } = await minedTransfer(2, 5n)

    expect(await located(hash)).toEqual({ receipt: b1.blockHash, tx: b1.blockHash })
    const kept = n.node.context.txReplies
    expect(kept.size).toEqual({ receipt: 1, transaction: 1 })
    const first = kept.get('receipt', hash)

    // A sibling of b1 without the transaction, made the head: the transaction is not on the canonical chain.
    const c1 = await engineBlock(n, parent, payloadAttributes(++t, { feeRecipient: `0x${'cc'.repeat(20)}` }), { head: false })
    expect(c1.transactions).toEqual([])
    await makeHead(n, c1.blockHash)
    const away = await located(hash)
    expect(away.receipt).toBeNull()
    // Pending again or unknown, but in no block.
    expect(away.tx ?? null).toBeNull()
    expect(kept.size.receipt).toBe(0)

    await makeHead(n, b1.blockHash)
    expect(await located(hash)).toEqual({ receipt: b1.blockHash, tx: b1.blockHash })

    // A block on b1: what was kept stays kept (the same bytes, not read again).
    const again = kept.get('receipt', hash)
    const b2 = await engineBlock(n, b1.blockHash, payloadAttributes(++t))
    expect(await latestHash(n)).toBe(b2.blockHash)
    expect(await located(hash)).toEqual({ receipt: b1.blockHash, tx: b1.blockHash })
    expect(kept.get('receipt', hash)).toBe(again)
    expect(again).not.toBe(first)
  })

  it('answer what they keep only to the hash exactly as kept: the same digits in capitals are still refused', async () => {
    const { hash, block: b } = await minedTransfer(3, 6n)
    const read = await n.http<Located>('eth_getTransactionReceipt', [hash])
    expect(read.result?.blockHash).toBe(b.blockHash)
    const kept = n.node.context.txReplies
    // Kept now, and answered from what is kept, the same reply.
    expect(kept.kept('receipt', hash)).toBeDefined()
    expect(await n.http('eth_getTransactionReceipt', [hash])).toEqual(read)
    const shouted = `0x${hash.slice(2).toUpperCase()}`
    expect((await n.http('eth_getTransactionReceipt', [shouted])).error?.code).toBe(-32602)
    expect((await n.http('eth_getTransactionByHash', [shouted])).error?.code).toBe(-32602)
    expect((await n.http('eth_getTransactionReceipt', [hash, hash])).error?.code).toBe(-32602)
  })
})
