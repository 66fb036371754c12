import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { http, createPublicClient, defineChain, parseAbi } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain-JS build script, no declarations
import { compileMulticall3 } from '../../scripts/compile-multicall3.mjs'
import { REPO_ROOT } from '../testing/paths.js'
import { type TestNode, startTestNode } from '../testing/testNode.js'
import { devAccounts } from './dev.js'
import { MULTICALL3_ADDRESS, MULTICALL3_RUNTIME } from './multicall3.js'

// Multicall3 on the dev chain: the committed code is what contracts/Multicall3.sol compiles to, and viem's
// multicall works against it out of the box.

let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ dev: {}, devAccounts: devAccounts() })
})
afterAll(async () => {
  await n.close()
})

describe('Multicall3', () => {
  it('is the compiled source', () => {
    const source = readFileSync(join(REPO_ROOT, 'contracts', 'Multicall3.sol'), 'utf8')
    expect(`0x${(compileMulticall3 as (s: string) => string)(source)}`).toBe(MULTICALL3_RUNTIME)
  })

  it('answers viem’s multicall at its usual address, failures included', async () => {
    const chain = defineChain({
      id: 1337,
      name: 'sponge dev',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`http://127.0.0.1:${n.node.httpPort}`] } },
      contracts: { multicall3: { address: MULTICALL3_ADDRESS as `0x${string}` } },
    })
    const client = createPublicClient({ chain, transport: http() })
    const abi = parseAbi([
      'function getEthBalance(address) view returns (uint256)',
      'function getChainId() view returns (uint256)',
      'function nope() view returns (uint256)',
    ])
    const rich = devAccounts()[0]!.address as `0x${string}`
    const [balance, chainId, failed] = await client.multicall({
      contracts: [
        { address: MULTICALL3_ADDRESS as `0x${string}`, abi, functionName: 'getEthBalance', args: [rich] },
        { address: MULTICALL3_ADDRESS as `0x${string}`, abi, functionName: 'getChainId' },
        { address: MULTICALL3_ADDRESS as `0x${string}`, abi, functionName: 'nope' },
      ],
    })
    expect(balance).toEqual({ status: 'success', result: await client.getBalance({ address: rich }) })
    expect(chainId).toEqual({ status: 'success', result: 1337n })
    expect(failed!.status).toBe('failure')
  })
})
