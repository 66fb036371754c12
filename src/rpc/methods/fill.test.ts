import { createTxFromRLP } from '@ethereumjs/tx'
import { keccak_256 } from '@noble/hashes/sha3.js'
import { type Hex, createWalletClient, defineChain, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { REVERT_NOPE, assemble } from '../../testing/asm.js'
import { type TestNode, devGenesisWith, sendMined, startTestNode } from '../../testing/testNode.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'

// eth_fillTransaction as geth answers it: the request's nonce, gas, fees and chain id filled, the transaction
// unsigned as `raw` and as geth's transaction JSON; and what viem does with it (it asks for it first).

/** Reverts whatever it is sent with Error("nope"). */
const NOPE = '0x00000000000000000000000000000000000c0003'
const NOPE_CODE = assemble(REVERT_NOPE)

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {}, devAccounts: devAccounts(), genesis: devGenesisWith({ [NOPE]: NOPE_CODE }) })
})
afterAll(async () => {
  await n.close()
})

const [alice, bob] = [devAccounts()[5]!, devAccounts()[6]!.address.toLowerCase()]

interface Filled {
  raw: string
  tx: Record<string, unknown>
}

describe('eth_fillTransaction', () => {
  it('fills a transfer as geth does: the pool nonce, 21000 gas, the suggested tip over twice the base fee, the chain id', async () => {
    const head = (await n.http<{ baseFeePerGas: string }>('eth_getBlockByNumber', ['latest', false])).result!
    const tip = BigInt((await n.http<string>('eth_maxPriorityFeePerGas')).result!)
    const nonce = (await n.http<string>('eth_getTransactionCount', [alice.address, 'latest'])).result!
    const { raw, tx } = (await n.http<Filled>('eth_fillTransaction', [{ from: alice.address, to: bob, value: '0x1' }])).result!
    expect(Object.keys(tx)).toEqual([
      'type',
      'chainId',
      'nonce',
      'to',
      'gas',
      'gasPrice',
      'maxPriorityFeePerGas',
      'maxFeePerGas',
      'value',
      'input',
      'accessList',
      'v',
      'r',
      's',
      'yParity',
      'hash',
    ])
    expect(tx).toEqual({
      type: '0x2',
      chainId: '0x539',
      nonce,
      to: bob,
      gas: '0x5208',
      gasPrice: null,
      maxPriorityFeePerGas: `0x${tip.toString(16)}`,
      maxFeePerGas: `0x${(tip + 2n * BigInt(head.baseFeePerGas)).toString(16)}`,
      value: '0x1',
      input: '0x',
      accessList: [],
      v: '0x0',
      r: '0x0',
      s: '0x0',
      yParity: '0x0',
      hash: bytesToHex(keccak_256(hexToBytes(raw))),
    })
    // `raw` is the unsigned transaction: signed as it is, it is mined.
    const signed = createTxFromRLP(hexToBytes(raw), { common: n.spec.commonAt(1n, BigInt(Math.floor(Date.now() / 1000))) }).sign(
      hexToBytes(alice.privateKey),
    )
    expect(signed.isSigned()).toBe(true)
    const { receipt } = await sendMined(n, 'eth_sendRawTransaction', bytesToHex(signed.serialize()))
    expect(receipt).toMatchObject({ status: '0x1', from: alice.address.toLowerCase(), to: bob, type: '0x2' })
  })

  it('counts pooled transactions in the nonce and keeps what the request gives', async () => {
    const given = { from: alice.address, to: bob, nonce: '0x7', gas: '0x7530', maxFeePerGas: '0x3b9aca00', maxPriorityFeePerGas: '0x1' }
    expect((await n.http<Filled>('eth_fillTransaction', [given])).result!.tx).toMatchObject({
      nonce: '0x7',
      gas: '0x7530',
      maxFeePerGas: '0x3b9aca00',
      maxPriorityFeePerGas: '0x1',
    })
  })

  it('makes a legacy transaction for a gas price (no chain id while unsigned) and an EIP-2930 one with an access list', async () => {
    const legacy = (await n.http<Filled>('eth_fillTransaction', [{ from: alice.address, to: bob, gasPrice: '0x77359400' }])).result!
    expect(legacy.tx).toMatchObject({ type: '0x0', gasPrice: '0x77359400', maxFeePerGas: null, maxPriorityFeePerGas: null, v: '0x0' })
    expect(legacy.tx).not.toHaveProperty('chainId')
    expect(legacy.tx).not.toHaveProperty('yParity')
    expect(legacy.tx).not.toHaveProperty('accessList')
    const accessList = [{ address: bob, storageKeys: [] }]
    const typed = (await n.http<Filled>('eth_fillTransaction', [{ from: alice.address, to: bob, gasPrice: '0x77359400', accessList }])).result!
    expect(typed.tx).toMatchObject({ type: '0x1', chainId: '0x539', accessList, maxFeePerGas: null })
  })

  it('answers an estimate that reverts as eth_estimateGas does, and refuses what geth refuses in its words', async () => {
    const call = { from: alice.address, to: NOPE }
    const fill = await n.http('eth_fillTransaction', [call])
    expect(fill.error).toMatchObject({ code: 3, message: 'execution reverted: nope' })
    expect(fill.error).toEqual((await n.http('eth_estimateGas', [call])).error)
    const refused = async (req: Record<string, unknown>) => (await n.http('eth_fillTransaction', [{ from: alice.address, ...req }])).error
    expect(await refused({ to: bob, chainId: '0x2' })).toEqual({ code: -32000, message: "chainId does not match node's (have=2, want=1337)" })
    expect(await refused({})).toEqual({ code: -32000, message: 'contract creation without any data provided' })
    expect(await refused({ to: bob, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' })).toEqual({
      code: -32000,
      message: 'maxFeePerGas (0x1) < maxPriorityFeePerGas (0x2)',
    })
    expect(await refused({ to: bob, input: '0x01', data: '0x02' })).toMatchObject({ code: -32000, message: /both "data" and "input"/ })
  })

  it('is what viem asks for first when it prepares a transaction, and the transaction it makes from it is mined', async () => {
    const asked: string[] = []
    const chain = defineChain({
      id: 1337,
      name: 'sponge dev',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`http://127.0.0.1:${n.node.httpPort}`] } },
    })
    const transport = http(undefined, {
      onFetchRequest: (_request, init) => {
        const body = JSON.parse(String(init.body)) as { method: string } | { method: string }[]
        for (const call of Array.isArray(body) ? body : [body]) asked.push(call.method)
      },
    })
    const wallet = createWalletClient({ account: privateKeyToAccount(alice.privateKey as Hex), chain, transport })
    const hash = await wallet.sendTransaction({ to: bob as Hex, value: 5n })
    expect(asked).toContain('eth_fillTransaction')
    expect(asked).not.toContain('eth_estimateGas')
    const receipt = (await n.http<{ status: string }>('eth_getTransactionReceipt', [hash])).result
    expect(receipt?.status).toBe('0x1')
  })
})
