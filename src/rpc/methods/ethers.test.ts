import { Contract, ContractFactory, JsonRpcProvider, Wallet, WebSocketProvider, parseEther } from 'ethers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assemble } from '../../testing/asm.js'
import { devAccounts } from '../../chain/dev.js'
import { nativeKzg } from '../../crypto/kzg.js'
import { type TestNode, startTestNode } from '../../testing/testNode.js'

// ethers v6 against the dev chain with the library's defaults: no fees, gas or nonce set by hand. What ethers
// computed (hash, sender, contract address, type) must be what the node's receipts and transactions say.

const abi = ['event Ping(address indexed from, uint256 value)', 'function ping(uint256 value)']
/** ping(v): emits Ping(msg.sender, v) — LOG2(keccak256("Ping(address,uint256)"), caller) with v as data. */
const PING_TOPIC = '0xfd8d0c1dc3ab254ec49463a1192bb2423b3b851adedec1aa94dcd362dc063c9d'
const RUNTIME = assemble(['0x04', 'CALLDATALOAD', '0x00', 'MSTORE', 'CALLER', PING_TOPIC, '0x20', '0x00', 'LOG2', 'STOP'])

function deployCode(runtime: string): string {
  const code = runtime.slice(2)
  const len = (code.length / 2).toString(16).padStart(2, '0')
  // PUSH1 len, DUP1, PUSH1 11, PUSH1 0, CODECOPY, PUSH1 0, RETURN — then the runtime.
  return `0x60${len}80600b6000396000f3${code}`
}

// The same against the main thread serving the port and against four serving threads (node/servingThreads.ts).
describe.each([1, 4])('with --http.threads %i', (threads) => {
  let n: TestNode
  let provider: JsonRpcProvider
  let wallet: Wallet
  beforeAll(async () => {
    n = await startTestNode({ dev: {}, devAccounts: devAccounts(), httpThreads: threads })
    // ethers reuses an identical request's answer for 250 ms: a nonce read for a second transaction sent within that
    // time would be the first's. Real clients wait longer between sends; the test does not, so it turns that off.
    provider = new JsonRpcProvider(`http://127.0.0.1:${n.node.httpPort}`, undefined, { staticNetwork: true, pollingInterval: 50, cacheTimeout: -1 })
    wallet = new Wallet(devAccounts()[6]!.privateKey, provider)
  })
  afterAll(async () => {
    provider.destroy()
    await n.close()
  })

  describe('ethers v6 with its defaults', () => {
    it('sends each transaction type, and the node agrees with what ethers computed', async () => {
      const to = devAccounts()[1]!.address
      const auth = await wallet.authorize({ address: to, nonce: (await wallet.getNonce()) + 5 })
      const requests = [
        { type: 0, to, value: 1n },
        { type: 1, to, value: 2n, accessList: [{ address: to, storageKeys: [] }] },
        { type: 2, to, value: 3n },
        { type: 3, to, blobs: [new Uint8Array(131072).fill(1, 0, 31)], kzg: nativeKzg(), maxFeePerBlobGas: 10n ** 10n },
        { type: 4, to: wallet.address, authorizationList: [auth] },
      ]
      for (const req of requests) {
        const sent = await wallet.sendTransaction(req)
        const receipt = (await sent.wait())!
        expect(receipt.status).toBe(1)
        expect(receipt.hash).toBe(sent.hash)
        expect(receipt.from).toBe(wallet.address)
        expect(receipt.type).toBe(req.type)
        const onChain = (await provider.getTransaction(sent.hash))!
        expect({ type: onChain.type, nonce: onChain.nonce, from: onChain.from }).toEqual({ type: req.type, nonce: sent.nonce, from: wallet.address })
        const byIndex = (
          await n.http<{ hash: string }>('eth_getTransactionByBlockNumberAndIndex', [
            `0x${receipt.blockNumber.toString(16)}`,
            `0x${receipt.index.toString(16)}`,
          ])
        ).result
        expect(byIndex?.hash).toBe(sent.hash)
      }
      // The set-code transaction delegated the wallet's account.
      expect(await provider.getCode(wallet.address)).toBe(`0xef0100${to.slice(2).toLowerCase()}`)
    })

    it('deploys a contract, writes to it, reads its events with getLogs and watches them over WebSocket', async () => {
      const deployer = new Wallet(devAccounts()[9]!.privateKey, provider)
      const factory = new ContractFactory(abi, deployCode(RUNTIME), deployer)
      const contract = await factory.deploy()
      const deployTx = contract.deploymentTransaction()!
      await contract.waitForDeployment()
      const address = await contract.getAddress()
      expect((await provider.getTransactionReceipt(deployTx.hash))!.contractAddress).toBe(address)

      const ws = new WebSocketProvider(`ws://127.0.0.1:${n.node.httpPort}`)
      const watched = new Contract(address, abi, ws)
      const seen = new Promise<bigint>((resolve) => {
        void watched.on('Ping', (_from: string, value: bigint) => resolve(value))
      })
      // ethers subscribes in the background, with no event for "subscribed": ping (each mined) until one is seen.
      const settled = () => Promise.race([seen.then(() => true), Promise.resolve(false)])
      let pings = 0
      while (pings < 20 && !(await settled())) {
        await (await (contract.connect(deployer) as Contract).getFunction('ping')(parseEther('1'))).wait()
        pings++
        await provider.send('eth_chainId', []) // a round trip for the notification to arrive
      }
      const events = await (contract as Contract).queryFilter('Ping', 0, 'latest')
      expect(events).toHaveLength(pings)
      expect((events[0] as unknown as { args: unknown[] }).args).toEqual([deployer.address, parseEther('1')])
      expect(await seen).toBe(parseEther('1'))
      await ws.destroy()
    })
  })
})
