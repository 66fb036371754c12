import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, receiptNow, signedTransfer, startTestNode } from '../../testing/testNode.js'

// The read path lends memory twice over (LMDB's read buffer, one reused reply buffer): many concurrent replies,
// batched and single, synchronous and promised, must each still carry exactly their own data.

let n: TestNode
const hashes: string[] = []
// Dev mode coalesces transactions that arrive while a block is being built, so a block may hold several: each
// transaction is addressed by the block and index its receipt gives.
const placeOf = new Map<string, [string, string]>()

beforeAll(async () => {
  n = await startTestNode({ dev: {} })
  // Sent together, so that blocks hold several transactions and indexes other than 0 are read too.
  const sent = await Promise.all(
    Array.from({ length: 12 }, (_, i) => n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, i % 10, Math.floor(i / 10))])),
  )
  for (const s of sent) hashes.push(s.result!)
  // Every send answered: each pending one once its block was made; a second nonce that arrived before its sender's
  // first waited in the pool's queue, and went into the block the first one's send waited for. Every receipt is
  // there: one read each.
  for (const h of hashes) {
    const r = await receiptNow(n, h)
    placeOf.set(h, [r.blockNumber, r.transactionIndex])
  }
})
afterAll(async () => {
  await n.close()
})

async function post(body: unknown): Promise<unknown> {
  const res = await fetch(`http://127.0.0.1:${n.node.httpPort}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return res.json()
}

const call = (id: number, method: string, params: unknown[]) => ({ jsonrpc: '2.0', id, method, params })

describe('store reads under concurrency', () => {
  it('gives every concurrent reply its own receipts, transactions and balances', async () => {
    const rounds = Array.from({ length: 40 }, async (_, k) => {
      const order = hashes.map((_, i) => hashes[(i + k) % hashes.length]!)
      const batch = order.flatMap((h, i) => [
        call(3 * i, 'eth_getTransactionReceipt', [h]),
        call(3 * i + 1, 'eth_getTransactionByBlockNumberAndIndex', placeOf.get(h)!),
        // Answered by the worker pool: a promised answer in the middle of synchronous ones (one per batch, so
        // that the pool's bounded queue is not what this test measures).
        i === 5 ? call(3 * i + 2, 'eth_getBalance', [devAccounts()[k % 10]!.address, 'latest']) : call(3 * i + 2, 'eth_chainId', []),
      ])
      const [replies, single] = await Promise.all([
        post(batch) as Promise<{ id: number; result: { transactionHash?: string; hash?: string } | string }[]>,
        post(call(k, 'eth_getTransactionReceipt', [order[0]])) as Promise<{ id: number; result: { transactionHash: string } }>,
      ])
      expect(single.id).toBe(k)
      expect(single.result.transactionHash).toBe(order[0])
      expect(replies.map((r) => r.id)).toEqual(batch.map((c) => c.id))
      order.forEach((h, i) => {
        expect((replies[3 * i]!.result as { transactionHash: string }).transactionHash).toBe(h)
        expect((replies[3 * i + 1]!.result as { hash: string }).hash).toBe(h)
        expect(replies[3 * i + 2], JSON.stringify(replies[3 * i + 2])).toHaveProperty('result', expect.stringMatching(/^0x[0-9a-f]+$/))
      })
    })
    await Promise.all(rounds)
  })
})
