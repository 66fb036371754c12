import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, signedTransfer, startTestNode } from '../../testing/testNode.js'

// anvil's dev methods, on dev mode only.

let dev: TestNode
let plain: TestNode
beforeAll(async () => {
  ;[dev, plain] = await Promise.all([startTestNode({ dev: { period: 3600 }, devAccounts: devAccounts() }), startTestNode()])
})
afterAll(async () => {
  await Promise.all([dev.close(), plain.close()])
})

const number = async () => (await dev.http<string>('eth_blockNumber')).result

describe('evm_* on the dev chain', () => {
  it('mines on demand, at the timestamp asked for', async () => {
    expect(await number()).toBe('0x0')
    expect((await dev.http('evm_setNextBlockTimestamp', ['0x70000000'])).error).toBeUndefined()
    expect((await dev.http('evm_mine')).result).toBe('0x0')
    expect(await number()).toBe('0x1')
    expect((await dev.http<{ timestamp: string }>('eth_getBlockByNumber', ['latest', false])).result!.timestamp).toBe('0x70000000')
    expect((await dev.http('evm_setNextBlockTimestamp', ['0x1'])).error?.code).toBe(-32602)
  })

  it('reverts to a snapshot through forkchoice; what was undone is pooled again', async () => {
    const snap = (await dev.http<string>('evm_snapshot')).result!
    // Twenty in the block undone, so that re-validating them takes a while.
    const hashes: string[] = []
    for (let nonce = 0; nonce < 20; nonce++)
      hashes.push((await dev.http<string>('eth_sendRawTransaction', [signedTransfer(dev.spec, 5, nonce)])).result!)
    const hash = hashes[19]!
    await dev.http('evm_mine')
    expect(await number()).toBe('0x2')
    expect((await dev.http<{ blockNumber: string }>('eth_getTransactionReceipt', [hash])).result?.blockNumber).toBe('0x2')
    expect((await dev.http('evm_revert', [snap])).result).toBe(true)
    expect(await number()).toBe('0x1')
    expect((await dev.http('eth_getTransactionReceipt', [hash])).result).toBeNull()
    // Back in the pool (re-validated in the engine lane) by the time evm_revert answers — a transaction sent next
    // gets the nonce after it (CI once saw "replacement transaction underpriced" there) — and mined again.
    expect((await dev.http('eth_getTransactionByHash', [hash])).result).not.toBeNull()
    await dev.http('evm_mine')
    expect((await dev.http<{ blockNumber: string }>('eth_getTransactionReceipt', [hash])).result?.blockNumber).toBe('0x2')
    expect((await dev.http('evm_revert', [snap])).result).toBe(false)
  })

  it('is not served without dev mode', async () => {
    expect((await plain.http('evm_mine')).error?.code).toBe(-32601)
  })
})
