import { toChecksumAddress } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, signedTransfer, startTestNode } from '../../testing/testNode.js'

let dev: TestNode
let plain: TestNode
beforeAll(async () => {
  // A block an hour: what is sent stays in the pool.
  ;[dev, plain] = await Promise.all([startTestNode({ dev: { period: 3600 } }), startTestNode()])
})
afterAll(async () => {
  await Promise.all([dev.close(), plain.close()])
})

describe('txpool_* and eth_pendingTransactions', () => {
  it('report pending and queued transactions by sender and nonce, as geth', async () => {
    // Keys and inspect's recipients carry geth's EIP-55 checksum; the accounts are listed in lowercase.
    const sender = toChecksumAddress(devAccounts()[6]!.address)
    const to = toChecksumAddress(devAccounts()[9]!.address)
    const first = (await dev.http<string>('eth_sendRawTransaction', [signedTransfer(dev.spec, 6, 0, { value: 5n })])).result!
    const gapped = (await dev.http<string>('eth_sendRawTransaction', [signedTransfer(dev.spec, 6, 2)])).result!
    expect((await dev.http('txpool_status')).result).toEqual({ pending: '0x1', queued: '0x1' })
    const content = (
      await dev.http<{ pending: Record<string, Record<string, { hash: string }>>; queued: Record<string, Record<string, { hash: string }>> }>(
        'txpool_content',
      )
    ).result!
    expect(content.pending[sender]!['0']!.hash).toBe(first)
    expect(content.pending[sender]!['0']).toMatchObject({ blockHash: null, blockNumber: null, blockTimestamp: null, transactionIndex: null })
    expect(content.queued[sender]!['2']!.hash).toBe(gapped)
    expect((await dev.http('txpool_contentFrom', [sender])).result).toEqual({ pending: content.pending[sender], queued: content.queued[sender] })
    expect((await dev.http('txpool_contentFrom', [to])).result).toEqual({ pending: {}, queued: {} })
    const inspect = (await dev.http<{ pending: Record<string, Record<string, string>> }>('txpool_inspect')).result!
    expect(inspect.pending[sender]!['0']).toBe(`${to}: 5 wei + 21000 gas × 10000000000 wei`)
    expect((await dev.http<{ hash: string }[]>('eth_pendingTransactions')).result!.map((t) => t.hash)).toEqual([first])
    expect((await plain.http('txpool_status')).error?.code).toBe(-32601)
  })
})
