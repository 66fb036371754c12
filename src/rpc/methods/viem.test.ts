import { http, createPublicClient, defineChain, parseAbi } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REVERT_NOPE, assemble } from '../../testing/asm.js'
import { devAccounts, devGenesis } from '../../chain/dev.js'
import { type TestNode, startTestNode } from '../../testing/testNode.js'

// What viem users call before and instead of sending: readContract, simulateContract (eth_call), estimateGas and
// createAccessList, against a node with viem's own transport.

const TOKEN = '0x00000000000000000000000000000000000e0001'
const abi = parseAbi(['function balanceOf(address) view returns (uint256)', 'function set(uint256)', 'function fail()'])
/** balanceOf(a): SLOAD(a); set(v): SSTORE(0, v); anything else: revert Error("nope"). */
const CODE = assemble([
  '0x00',
  'CALLDATALOAD',
  '0xe0',
  'SHR',
  'DUP1',
  '0x70a08231',
  'EQ',
  { target: 'balanceOf' },
  'JUMPI',
  '0x60fe47b1',
  'EQ',
  { target: 'set' },
  'JUMPI',
  ...REVERT_NOPE,
  { label: 'balanceOf' },
  'POP',
  '0x04',
  'CALLDATALOAD',
  'SLOAD',
  '0x00',
  'MSTORE',
  '0x20',
  '0x00',
  'RETURN',
  { label: 'set' },
  '0x04',
  'CALLDATALOAD',
  '0x00',
  'SSTORE',
  'STOP',
])

// The same against the main thread serving the port and against four serving threads (node/servingThreads.ts).
describe.each([1, 4])('with --http.threads %i', (threads) => {
  let n: TestNode
  let client: ReturnType<typeof createPublicClient>
  const holder = devAccounts()[2]!.address as `0x${string}`
  beforeAll(async () => {
    const genesis = devGenesis()
    genesis.alloc[TOKEN] = { balance: '0x0', code: CODE, storage: { [`0x${holder.slice(2).padStart(64, '0')}`]: `0x${'00'.repeat(31)}64` } }
    n = await startTestNode({ genesis, httpThreads: threads })
    const chain = defineChain({
      id: 1337,
      name: 'sponge dev',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`http://127.0.0.1:${n.node.httpPort}`] } },
    })
    client = createPublicClient({ chain, transport: http() })
  })
  afterAll(async () => {
    await n.close()
  })

  describe('viem against Sponge', () => {
    const account = privateKeyToAccount(devAccounts()[0]!.privateKey as `0x${string}`)
    it('readContract', async () => {
      expect(await client.readContract({ address: TOKEN, abi, functionName: 'balanceOf', args: [holder] })).toBe(100n)
    })
    it('simulateContract, and its revert reason', async () => {
      const { result } = await client.simulateContract({ account, address: TOKEN, abi, functionName: 'set', args: [7n] })
      expect(result).toBeUndefined()
      await expect(client.simulateContract({ account, address: TOKEN, abi, functionName: 'fail' })).rejects.toThrow(/nope/)
    })
    it('estimateGas', async () => {
      expect(await client.estimateGas({ account, to: devAccounts()[1]!.address as `0x${string}`, value: 1n })).toBe(21_000n)
      const gas = await client.estimateContractGas({ account, address: TOKEN, abi, functionName: 'set', args: [7n] })
      expect(gas).toBeGreaterThan(21_000n + 20_000n)
    })
    it('createAccessList', async () => {
      const r = await client.createAccessList({ account, to: TOKEN, data: `0x60fe47b1${'07'.padStart(64, '0')}` })
      expect(r.accessList).toEqual([{ address: TOKEN, storageKeys: [`0x${'00'.repeat(32)}`] }])
      expect(r.gasUsed).toBeGreaterThan(21_000n)
    })
  })
})
