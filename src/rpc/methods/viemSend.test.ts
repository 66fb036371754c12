import {
  type Chain,
  http,
  type Hex,
  createPublicClient,
  createWalletClient,
  defineChain,
  getContractAddress,
  parseAbi,
  parseEther,
  stringToHex,
  toBlobs,
  webSocket,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assemble } from '../../testing/asm.js'
import { devAccounts } from '../../chain/dev.js'
import { nativeKzg } from '../../crypto/kzg.js'
import { type TestNode, startTestNode } from '../../testing/testNode.js'

// viem with its defaults against the dev chain (Osaka): every transaction type, a real blob (viem builds the
// pre-Osaka sidecar; the node gives it cell proofs), a set-code transaction; then a contract deployed, written, its
// events read with getLogs and watched over WebSocket. What viem computed must be what the node answers.

const PING_TOPIC = '0xfd8d0c1dc3ab254ec49463a1192bb2423b3b851adedec1aa94dcd362dc063c9d' // Ping(address,uint256)
const RUNTIME = assemble(['0x04', 'CALLDATALOAD', '0x00', 'MSTORE', 'CALLER', PING_TOPIC, '0x20', '0x00', 'LOG2', 'STOP'])
const abi = parseAbi(['event Ping(address indexed from, uint256 value)', 'function ping(uint256 value)'])

// The same against the main thread serving the port and against four serving threads (node/servingThreads.ts).
describe.each([1, 4])('with --http.threads %i', (threads) => {
  let n: TestNode
  let chain: Chain
  beforeAll(async () => {
    // As `sponge node` starts (issue 31 item 7): the blob send finds c-kzg's setup loaded or loading, not a load of
    // its own that a loaded machine stretched past viem's 10 s timeout.
    n = await startTestNode({ dev: {}, devAccounts: devAccounts(), httpThreads: threads, kzgAtStart: true })
    chain = defineChain({
      id: 1337,
      name: 'sponge dev',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`http://127.0.0.1:${n.node.httpPort}`], webSocket: [`ws://127.0.0.1:${n.node.httpPort}`] } },
    })
  })
  afterAll(async () => {
    await n.close()
  })

  describe('viem with its defaults', () => {
    it('sends every transaction type; receipts and transactions agree with what viem computed', async () => {
      const account = privateKeyToAccount(devAccounts()[3]!.privateKey as Hex)
      const wallet = createWalletClient({ account, chain, transport: http() })
      const client = createPublicClient({ chain, transport: http() })
      const to = devAccounts()[1]!.address as Hex
      const kzg = nativeKzg()
      const sends: { type: string; send: () => Promise<Hex> }[] = [
        { type: 'legacy', send: () => wallet.sendTransaction({ to, value: 1n, type: 'legacy' }) },
        { type: 'eip2930', send: () => wallet.sendTransaction({ to, value: 2n, type: 'eip2930', accessList: [{ address: to, storageKeys: [] }] }) },
        { type: 'eip1559', send: () => wallet.sendTransaction({ to, value: 3n }) },
        {
          type: 'eip4844',
          send: () => wallet.sendTransaction({ to, blobs: toBlobs({ data: stringToHex('a real blob') }), kzg, maxFeePerBlobGas: 10n ** 10n }),
        },
        {
          type: 'eip7702',
          // Signed when sent: the authorization's nonce is the sender's next but one at that moment.
          send: async () =>
            wallet.sendTransaction({
              to: account.address,
              authorizationList: [await wallet.signAuthorization({ contractAddress: to, executor: 'self' })],
            }),
        },
      ]
      for (const { type, send } of sends) {
        const hash = await send()
        const receipt = await client.waitForTransactionReceipt({ hash })
        expect({ type: receipt.type, status: receipt.status, from: receipt.from }).toEqual({
          type,
          status: 'success',
          from: account.address.toLowerCase(),
        })
        const tx = await client.getTransaction({ blockNumber: receipt.blockNumber, index: receipt.transactionIndex })
        expect({ hash: tx.hash, type: tx.type }).toEqual({ hash, type })
        // Gas: within what viem estimated and set, and the block's own (one transaction a block on demand).
        const block = await client.getBlock({ blockNumber: receipt.blockNumber })
        expect(receipt.gasUsed <= tx.gas && receipt.gasUsed === block.gasUsed && receipt.cumulativeGasUsed === receipt.gasUsed).toBe(true)
        if (type === 'legacy' || type === 'eip1559') expect(receipt.gasUsed).toBe(21_000n)
        if (type === 'eip2930') expect(receipt.gasUsed).toBe(21_000n + 2_400n)
        if (type === 'eip4844') expect(receipt.blobGasUsed).toBe(131072n)
      }
      expect(await client.getCode({ address: account.address })).toBe(`0xef0100${to.slice(2).toLowerCase()}`)
    })

    it('deploys, writes, reads the event with getLogs and watches it over WebSocket', async () => {
      const account = privateKeyToAccount(devAccounts()[5]!.privateKey as Hex)
      const wallet = createWalletClient({ account, chain, transport: http() })
      const client = createPublicClient({ chain, transport: http() })
      const ws = createPublicClient({ chain, transport: webSocket() })
      const nonce = await client.getTransactionCount({ address: account.address })
      const code = RUNTIME.slice(2)
      const deploy = await wallet.deployContract({ abi, bytecode: `0x60${(code.length / 2).toString(16).padStart(2, '0')}80600b6000396000f3${code}` })
      const receipt = await client.waitForTransactionReceipt({ hash: deploy })
      const address = getContractAddress({ from: account.address, nonce: BigInt(nonce) })
      expect(receipt.contractAddress).toBe(address.toLowerCase())

      const seen: bigint[] = []
      let resolveSeen: () => void
      const arrived = new Promise<void>((r) => (resolveSeen = r))
      const unwatch = ws.watchContractEvent({
        address,
        abi,
        eventName: 'Ping',
        onLogs: (logs) => {
          for (const l of logs) seen.push(l.args.value!)
          resolveSeen()
        },
      })
      // viem subscribes in the background with no "subscribed" event: write (each mined) until one is seen.
      const settled = () => Promise.race([arrived.then(() => true), Promise.resolve(false)])
      let writes = 0
      while (writes < 20 && !(await settled())) {
        await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ address, abi, functionName: 'ping', args: [parseEther('2')] }) })
        writes++
        await client.getChainId()
      }
      const logs = await client.getLogs({ address, event: abi[0], fromBlock: 0n })
      expect(logs).toHaveLength(writes)
      expect(logs[0]!.args).toEqual({ from: account.address, value: parseEther('2') })
      expect(seen[0]).toBe(parseEther('2'))
      unwatch()
      // Closed before the node is: viem would reconnect to a closed port (the next node's run prints its refusal).
      ;(await ws.transport.getRpcClient()).close()
    })
  })
})
