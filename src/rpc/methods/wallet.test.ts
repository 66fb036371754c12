import {
  BaseError,
  ContractFunctionRevertedError,
  type Hex,
  createWalletClient,
  defineChain,
  http,
  parseAbi,
  recoverMessageAddress,
  recoverTypedDataAddress,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devAccounts } from '../../chain/dev.js'
import { REVERT_NOPE, assemble } from '../../testing/asm.js'
import { type TestNode, devGenesisWith, sendMined, startTestNode } from '../../testing/testNode.js'

// The dev chain's wallet: what anvil users (and ethers' JsonRpcSigner) expect of the node's own accounts.

/** Reverts whatever it is sent with Error("nope"). */
const NOPE = '0x00000000000000000000000000000000000c0003'
const NOPE_CODE = assemble(REVERT_NOPE)

let dev: TestNode
let plain: TestNode
beforeAll(async () => {
  ;[dev, plain] = await Promise.all([
    startTestNode({ dev: {}, devAccounts: devAccounts(), genesis: devGenesisWith({ [NOPE]: NOPE_CODE }) }),
    startTestNode(),
  ])
})
afterAll(async () => {
  await Promise.all([dev.close(), plain.close()])
})

const [alice, bob] = [devAccounts()[3]!.address, devAccounts()[4]!.address]

describe('dev wallet', () => {
  it('sends a transaction with nonce, gas and fees filled in, and another after it', async () => {
    // Mined before the send answers (the dev chain mines on demand): each receipt is read once, right after.
    const first = await sendMined(dev, 'eth_sendTransaction', { from: alice, to: bob, value: '0x1' })
    expect(first.receipt).toMatchObject({ status: '0x1', from: alice, type: '0x2', gasUsed: '0x5208' })
    const second = await sendMined(dev, 'eth_sendTransaction', { from: alice, to: bob, value: '0x2', gasPrice: '0x77359400' })
    expect(second.receipt).toMatchObject({ status: '0x1', type: '0x0' })
    expect((await dev.http('eth_getTransactionCount', [alice])).result).toBe('0x2')
  })

  it('signs messages (eth_sign, personal_sign) that recover to the account', async () => {
    const message = '0x68656c6c6f'
    const a = (await dev.http<`0x${string}`>('eth_sign', [alice, message])).result!
    const b = (await dev.http<`0x${string}`>('personal_sign', [message, alice])).result!
    expect(a).toBe(b)
    expect((await recoverMessageAddress({ message: { raw: message }, signature: a })).toLowerCase()).toBe(alice)
  })

  it('signs EIP-712 typed data (eth_signTypedData_v4) that recovers to the account', async () => {
    const typed = {
      domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xcccccccccccccccccccccccccccccccccccccccc' as `0x${string}` },
      types: {
        Person: [
          { name: 'name', type: 'string' },
          { name: 'wallet', type: 'address' },
        ],
        Mail: [
          { name: 'from', type: 'Person' },
          { name: 'to', type: 'Person[]' },
          { name: 'contents', type: 'string' },
          { name: 'amounts', type: 'uint256[]' },
          { name: 'tag', type: 'bytes32' },
          { name: 'ok', type: 'bool' },
        ],
      },
      primaryType: 'Mail' as const,
      message: {
        from: { name: 'Cow', wallet: '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826' },
        to: [{ name: 'Bob', wallet: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' }],
        contents: 'Hello, Bob!',
        amounts: ['1', '2'],
        tag: `0x${'ab'.repeat(32)}`,
        ok: true,
      },
    }
    const asObject = (await dev.http<`0x${string}`>('eth_signTypedData_v4', [alice, typed])).result!
    const asText = (await dev.http<`0x${string}`>('eth_signTypedData_v4', [alice, JSON.stringify(typed)])).result!
    expect(asText).toBe(asObject)
    const recovered = await recoverTypedDataAddress({
      ...typed,
      message: { ...typed.message, amounts: [1n, 2n] } as never,
      signature: asObject,
    } as never)
    expect(recovered.toLowerCase()).toBe(alice)
    expect((await dev.http('eth_signTypedData_v4', [alice, '{"nope"']))?.error?.code).toBe(-32602)
  })

  it('answers a send that would revert as eth_estimateGas does: code 3, the reason, the revert bytes as data', async () => {
    const call = { from: alice, to: NOPE }
    const estimate = await dev.http('eth_estimateGas', [call])
    const send = await dev.http('eth_sendTransaction', [call])
    expect(send.error).toMatchObject({ code: 3, message: 'execution reverted: nope' })
    expect((send.error as { data?: string }).data).toMatch(/^0x08c379a0/)
    expect(send.error).toEqual(estimate.error)
  })

  it('lets viem decode the reason of a contract write from the dev wallet that reverts', async () => {
    const chain = defineChain({
      id: 1337,
      name: 'sponge dev',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`http://127.0.0.1:${dev.node.httpPort}`] } },
    })
    const wallet = createWalletClient({ account: alice as Hex, chain, transport: http() })
    const failed = await wallet.writeContract({ address: NOPE, abi: parseAbi(['function poke()']), functionName: 'poke' }).catch((e: unknown) => e)
    expect(failed).toBeInstanceOf(BaseError)
    const reverted = (failed as BaseError).walk((e) => e instanceof ContractFunctionRevertedError)
    expect((reverted as ContractFunctionRevertedError | null)?.reason).toBe('nope')
  })

  it("holds no keys but the dev chain's", async () => {
    expect((await plain.http('eth_sendTransaction', [{ from: alice, to: bob }])).error).toMatchObject({ code: -32000, message: 'unknown account' })
    expect((await dev.http('eth_sign', [`0x${'99'.repeat(20)}`, '0x00'])).error?.message).toBe('unknown account')
  })
})
