import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectingLogger } from '../util/logger.js'
import { engineBlock, latestHash, payloadAttributes } from '../testing/engineBlocks.js'
import { type TestNode, ZERO32, signedTransfer, startTestNode } from '../testing/testNode.js'

// Mistakes a client can make, each reported from outside as -32603 with a stack trace in the log. None is the
// node's fault: each gets the code geth gives, and nothing is logged.

let n: TestNode
const logged: string[] = []
beforeAll(async () => {
  n = await startTestNode({ log: collectingLogger(logged, 'info') })
})
afterAll(async () => {
  await n.close()
})

async function raw(body: string, url = `http://127.0.0.1:${n.node.httpPort}`): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return res.text()
}

describe('client mistakes are answered as such', () => {
  it('odd-length and empty hex in eth_sendRawTransaction is -32602', async () => {
    expect((await n.http('eth_sendRawTransaction', ['0xabc'])).error?.code).toBe(-32602)
    expect((await n.http('eth_sendRawTransaction', ['0x'])).error?.code).toBe(-32602)
  })

  it('a block number past 2^53 is a block that does not exist', async () => {
    expect(await n.http('eth_getBlockByNumber', ['0x20000000000000', false])).toMatchObject({ result: null })
    expect(await n.http('eth_getBlockByNumber', ['0xffffffffffffffff', true])).toMatchObject({ result: null })
    expect(await n.http('eth_getBlockTransactionCountByNumber', ['0xffffffffffffffff'])).toMatchObject({ result: null })
    expect((await n.http('eth_getBalance', [`0x${'00'.repeat(20)}`, '0xffffffffffffffff'])).error?.code).toBe(-32000)
  })

  it('a transaction index past 2^32 is a transaction that does not exist, not index 0 again', async () => {
    const sent = await n.http<string>('eth_sendRawTransaction', [signedTransfer(n.spec, 0, 0)])
    const p = await engineBlock(n, await latestHash(n), payloadAttributes(0x1000))
    expect((await n.http<{ hash: string }>('eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x0'])).result?.hash).toBe(sent.result)
    expect(await n.http('eth_getTransactionByBlockNumberAndIndex', ['0x1', '0x100000000'])).toMatchObject({ result: null })
    expect(await n.http('eth_getTransactionByBlockNumberAndIndex', ['0x1', '0xffffffffffffffff'])).toMatchObject({ result: null })
    expect(await n.http('eth_getTransactionByBlockHashAndIndex', [p.blockHash, '0x100000000'])).toMatchObject({ result: null })
  })

  it('odd-length extraData in newPayloadV4 is -32602, not an INVALID block', async () => {
    const head = (await n.http<Record<string, string>>('eth_getBlockByNumber', ['latest', false])).result!
    const payload = {
      parentHash: head.hash,
      feeRecipient: `0x${'00'.repeat(20)}`,
      stateRoot: head.stateRoot,
      receiptsRoot: head.receiptsRoot,
      logsBloom: head.logsBloom,
      prevRandao: ZERO32,
      blockNumber: '0x9',
      gasLimit: head.gasLimit,
      gasUsed: '0x0',
      timestamp: '0x99999',
      extraData: '0xabc',
      baseFeePerGas: '0x7',
      blockHash: ZERO32,
      transactions: [],
      withdrawals: [],
      blobGasUsed: '0x0',
      excessBlobGas: '0x0',
    }
    expect((await n.engine('engine_newPayloadV4', [payload, [], ZERO32, []])).error?.code).toBe(-32602)
  })

  it('echoes a numeric id exactly as sent', async () => {
    const big = '123456789012345678901234567890'
    expect(await raw(`{"jsonrpc":"2.0","id":${big},"method":"eth_chainId"}`)).toBe(`{"jsonrpc":"2.0","id":${big},"result":"0x539"}`)
    expect(await raw(`[{"jsonrpc":"2.0","id":1.50,"method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_chainId","id":-9007199254740993}]`)).toBe(
      '[{"jsonrpc":"2.0","id":1.50,"result":"0x539"},{"jsonrpc":"2.0","id":-9007199254740993,"result":"0x539"}]',
    )
    expect(await raw(`{"id":${big},"jsonrpc":"2.0","method":"eth_nope"}`)).toContain(`"id":${big},"error":{"code":-32601`)
  })

  it('logged nothing for any of it', () => {
    expect(logged.filter((l) => /"level":(50|40)|Error:/.test(l))).toEqual([])
  })
})
