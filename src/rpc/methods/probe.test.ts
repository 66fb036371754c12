import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { type TestNode, signedTransfer, startTestNode } from '../../testing/testNode.js'

// The methods libraries and wallets call unasked, answered as geth (and, for eth_accounts on the dev chain, anvil).

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {}, devAccounts: devAccounts() })
  const hash = (await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 0, 0, { tip: 2_000_000_000n })])).result!
  for (let i = 0; i < 500 && (await n.http('eth_getTransactionReceipt', [hash])).result == null; i++) await new Promise((r) => setTimeout(r, 10))
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

  it('capabilities: an archive, everything from genesis; the next base fee', async () => {
    const head = (await n.http<{ number: string; hash: string; baseFeePerGas: string; gasUsed: string; gasLimit: string }>('eth_getBlockByNumber', ['latest', false])).result!
    const caps = (await n.http<Record<string, unknown>>('eth_capabilities')).result!
    expect(caps.head).toEqual({ number: head.number, hash: head.hash })
    for (const r of ['state', 'tx', 'logs', 'receipts', 'blocks', 'stateproofs']) expect(caps[r]).toEqual({ disabled: false, oldestBlock: '0x0' })
    // One 21,000-gas transfer in a 36M-gas block: far below target, the base fee falls by about 1/8.
    const next = BigInt((await n.http<string>('eth_baseFee')).result!)
    const base = BigInt(head.baseFeePerGas)
    const target = BigInt(head.gasLimit) / 2n
    expect(next).toBe(base - (base * (target - BigInt(head.gasUsed))) / target / 8n)
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
    const h = (await n.http<{ oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward: string[][]; baseFeePerBlobGas: string[]; blobGasUsedRatio: number[] }>(
      'eth_feeHistory',
      ['0x2', 'latest', [10, 90]],
    )).result!
    expect(h.oldestBlock).toBe('0x0')
    expect(h.baseFeePerGas).toHaveLength(3)
    expect(h.gasUsedRatio[1]).toBeCloseTo(21_000 / Number(BigInt((await n.http<{ gasLimit: string }>('eth_getBlockByNumber', ['0x1', false])).result!.gasLimit)))
    expect(h.reward).toEqual([['0x0', '0x0'], ['0x77359400', '0x77359400']])
    expect(h.baseFeePerBlobGas).toEqual(['0x1', '0x1', '0x1'])
    expect(h.blobGasUsedRatio).toEqual([0, 0])
    expect((await n.http('eth_feeHistory', ['0x1', 'latest', [50, 10]])).error?.code).toBe(-32602)
    // The predicted next base fee is the one the next block gets.
    const hash = (await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 1, 0)])).result!
    let receipt: { blockNumber: string } | null = null
    for (let i = 0; i < 500 && receipt === null; i++) {
      receipt = (await n.http<{ blockNumber: string } | null>('eth_getTransactionReceipt', [hash])).result ?? null
      if (receipt === null) await new Promise((r) => setTimeout(r, 10))
    }
    expect(receipt!.blockNumber).toBe('0x2')
    expect((await n.http<{ baseFeePerGas: string }>('eth_getBlockByNumber', ['0x2', false])).result!.baseFeePerGas).toBe(h.baseFeePerGas[2])
  })
})
