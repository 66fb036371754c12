import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, sendMined, signedTransfer, startTestNode } from '../../testing/testNode.js'

// The methods libraries and wallets call unasked, answered as geth (and, for eth_accounts on the dev chain, anvil).

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {}, devAccounts: devAccounts() })
  // Block 1: one transfer with a 2 gwei tip, mined before the send answers (the dev chain mines on demand).
  await sendMined(n, 'eth_sendRawTransaction', signedTransfer(n.spec, 0, 0, { tip: 2_000_000_000n }))
})
afterAll(async () => {
  await n.close()
})

describe('probe methods', () => {
  it('node status', async () => {
    expect((await n.http('eth_syncing')).result).toBe(false)
    expect((await n.http('eth_mining')).result).toBe(false)
    expect((await n.http('eth_hashrate')).result).toBe('0x0')
    expect((await n.http('net_listening')).result).toBe(true)
    expect((await n.http('net_peerCount')).result).toBe('0x0')
    expect((await n.http('eth_protocolVersion')).result).toBe('0x44')
    expect((await n.http('eth_accounts')).result).toEqual(devAccounts().map((a) => a.address))
    expect((await n.http('web3_sha3', ['0x'])).result).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect((await n.http('web3_sha3', ['0xabc'])).error?.code).toBe(-32602)
  })

  it('capabilities: an archive, everything from genesis', async () => {
    const head = (await n.http<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false])).result!
    const caps = (await n.http<Record<string, unknown>>('eth_capabilities')).result!
    expect(caps.head).toEqual({ number: head.number, hash: head.hash })
    for (const r of ['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs']) expect(caps[r]).toEqual({ disabled: false, oldestBlock: '0x0' })
  })

  it("predicts the base fee of the next block: eth_baseFee and eth_feeHistory's last entry are what the block made next gets", async () => {
    const head = (await n.http<{ number: string; baseFeePerGas: string }>('eth_getBlockByNumber', ['latest', false])).result!
    const next = (await n.http<string>('eth_baseFee')).result!
    expect((await n.http<{ baseFeePerGas: string[] }>('eth_feeHistory', ['0x1', 'latest', []])).result!.baseFeePerGas.at(-1)).toBe(next)
    // The head is far below its gas target: the base fee moves, so the prediction is not the head's own.
    expect(next).not.toBe(head.baseFeePerGas)
    // The dev chain's builder sets the block's base fee with EthereumJS's calcNextBaseFee, not Sponge's fee code.
    const { receipt } = await sendMined(n, 'eth_sendRawTransaction', signedTransfer(n.spec, 1, 0))
    expect(BigInt(receipt.blockNumber)).toBe(BigInt(head.number) + 1n)
    expect((await n.http<{ baseFeePerGas: string }>('eth_getBlockByHash', [receipt.blockHash, false])).result!.baseFeePerGas).toBe(next)
  })

  it('uncles (none) and headers', async () => {
    expect((await n.http('eth_getUncleCountByBlockNumber', ['0x1'])).result).toBe('0x0')
    expect((await n.http('eth_getUncleCountByBlockNumber', ['0x99'])).result).toBeNull()
    expect((await n.http('eth_getUncleByBlockNumberAndIndex', ['0x1', '0x0'])).result).toBeNull()
    const block = (await n.http<Record<string, unknown>>('eth_getBlockByNumber', ['0x1', false])).result!
    const header = (await n.http<Record<string, unknown>>('eth_getHeaderByNumber', ['0x1'])).result!
    expect(header.hash).toBe(block.hash)
    expect(header.stateRoot).toBe(block.stateRoot)
    expect(header).not.toHaveProperty('transactions')
    expect(header).not.toHaveProperty('size')
    expect((await n.http('eth_getHeaderByHash', [block.hash])).result).toEqual(header)
  })

  it('blob base fee and fee history', async () => {
    expect((await n.http('eth_blobBaseFee')).result).toBe('0x1')
    // Blocks 0 and 1 (named, so that blocks made by other tests do not matter), and the base fee after block 1.
    const h = (
      await n.http<{
        oldestBlock: string
        baseFeePerGas: string[]
        gasUsedRatio: number[]
        reward: string[][]
        baseFeePerBlobGas: string[]
        blobGasUsedRatio: number[]
      }>('eth_feeHistory', ['0x2', '0x1', [10, 90]])
    ).result!
    const block = async (tag: string) => (await n.http<{ baseFeePerGas: string; gasLimit: string }>('eth_getBlockByNumber', [tag, false])).result!
    const [zero, one] = [await block('0x0'), await block('0x1')]
    expect(h.oldestBlock).toBe('0x0')
    expect(h.baseFeePerGas.slice(0, 2)).toEqual([zero.baseFeePerGas, one.baseFeePerGas])
    expect(h.baseFeePerGas).toHaveLength(3)
    expect(h.gasUsedRatio).toEqual([0, 21_000 / Number(BigInt(one.gasLimit))])
    expect(h.reward).toEqual([
      ['0x0', '0x0'],
      ['0x77359400', '0x77359400'],
    ])
    expect(h.baseFeePerBlobGas).toEqual(['0x1', '0x1', '0x1'])
    expect(h.blobGasUsedRatio).toEqual([0, 0])
    expect((await n.http('eth_feeHistory', ['0x1', 'latest', [50, 10]])).error?.code).toBe(-32602)
  })
})
