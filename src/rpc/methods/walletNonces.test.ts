import { once } from 'node:events'
import { JsonRpcProvider, JsonRpcSigner } from 'ethers'
import { type Hex, createWalletClient, defineChain, webSocket } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { devAccounts } from '../../chain/dev.js'
import { REVERT_NOPE, assemble } from '../../testing/asm.js'
import { type RpcReply, type TestNode, devGenesisWith, receiptNow, startTestNode } from '../../testing/testNode.js'

// Sends from one dev account fired together, as users' scripts fire them: without a nonce each is filled from the
// pool's nonce, and before the wallet's nonce lock all read the same one — 2 or 3 of 50 landed, the rest were
// "replacement transaction underpriced" (issue 31, item 6). geth fills, signs and pools under a per-account lock.

/** Reverts whatever it is sent with Error("nope"): a send to it fails in its estimate. */
const NOPE = '0x00000000000000000000000000000000000c0003'
/**
 * Counts down from 100,000 and stops: millions of gas, whose estimate the serving thread leaves to the lane (its budget
 * is 2 ms, one run of this takes far longer on any machine).
 */
const COUNT = '0x00000000000000000000000000000000000c0009'
const COUNT_CODE = assemble(['0x0186a0', { label: 'top' }, '0x01', 'SWAP1', 'SUB', 'DUP1', { target: 'top' }, 'JUMPI', 'STOP'])
const SENDS = 50
/** Of the 50, these many go over one WebSocket connection, the rest over HTTP, all at once. */
const OVER_WS = 10

let onDemand: TestNode
let periodic: TestNode
beforeAll(async () => {
  ;[onDemand, periodic] = await Promise.all([
    startTestNode({
      dev: {},
      devAccounts: devAccounts(),
      genesis: devGenesisWith({ [NOPE]: assemble(REVERT_NOPE), [COUNT]: COUNT_CODE }),
      // A lane worker's first EVM call takes seconds on a busy two-core machine: no estimate here may be cut short.
      evmTimeoutMs: 120_000,
    }),
    startTestNode({ dev: { period: 3600 }, devAccounts: devAccounts() }),
  ])
})
afterAll(async () => {
  await Promise.all([onDemand.close(), periodic.close()])
})

const account = (i: number) => devAccounts()[i]!.address.toLowerCase()
const to = account(9)
const wsUrl = (n: TestNode) => `ws://127.0.0.1:${n.node.httpPort}`

/** eth_sendTransaction calls sent together on one WebSocket connection; the replies in call order. */
async function wsSends(url: string, calls: Record<string, string>[]): Promise<RpcReply<string>[]> {
  const ws = new WebSocket(url)
  await once(ws, 'open')
  const replies = new Map<number, RpcReply<string>>()
  const all = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { id: number } & RpcReply<string>
      replies.set(m.id, {
        status: 101,
        ...(m.result === undefined ? {} : { result: m.result }),
        ...(m.error === undefined ? {} : { error: m.error }),
      })
      if (replies.size === calls.length) resolve()
    })
    ws.on('close', () => reject(new Error(`WebSocket closed with ${replies.size} of ${calls.length} replies`)))
  })
  for (const [id, call] of calls.entries()) ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'eth_sendTransaction', params: [call] }))
  await all
  ws.close()
  return calls.map((_, id) => replies.get(id)!)
}

/** `calls` sent all at once: the first OVER_WS over one WebSocket connection, the rest over HTTP, each its own request. */
function sendTogether(n: TestNode, calls: Record<string, string>[]): Promise<RpcReply<string>[]> {
  const overWs = wsSends(wsUrl(n), calls.slice(0, OVER_WS))
  const overHttp = calls.slice(OVER_WS).map((call) => n.http<string>('eth_sendTransaction', [call]))
  return Promise.all([overWs, Promise.all(overHttp)]).then(([a, b]) => [...a, ...b])
}

const pendingNonce = async (n: TestNode, address: string) =>
  Number(BigInt((await n.http<string>('eth_getTransactionCount', [address, 'pending'])).result!))
const nonceOf = async (n: TestNode, hash: string) =>
  Number(BigInt((await n.http<{ nonce: string }>('eth_getTransactionByHash', [hash])).result!.nonce))
const consecutive = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
const transfers = (from: string, count: number) => Array.from({ length: count }, (_, i) => ({ from, to, value: `0x${(i + 1).toString(16)}` }))

describe('dev wallet sends from one account, fired together', () => {
  it('on a chain that mines on demand: all 50 land with consecutive nonces, each mined when answered', async () => {
    const from = account(2)
    const start = await pendingNonce(onDemand, from)
    const replies = await sendTogether(onDemand, transfers(from, SENDS))
    expect(replies.filter((r) => r.error !== undefined).map((r) => r.error)).toEqual([])
    const hashes = replies.map((r) => r.result!)
    // Each send was answered once its block was made: the receipt is there now, for every one of them.
    const receipts = await Promise.all(hashes.map((h) => receiptNow(onDemand, h)))
    expect(receipts.every((r) => r.status === '0x1' && r.from === from)).toBe(true)
    expect(sorted(await Promise.all(hashes.map((h) => nonceOf(onDemand, h))))).toEqual(consecutive(start, SENDS))
    expect(await pendingNonce(onDemand, from)).toBe(start + SENDS)
  })

  it('on a --dev.period chain: all 50 are pooled with consecutive nonces, and evm_mine mines them', async () => {
    const from = account(3)
    const start = await pendingNonce(periodic, from)
    const replies = await sendTogether(periodic, transfers(from, SENDS))
    expect(replies.filter((r) => r.error !== undefined).map((r) => r.error)).toEqual([])
    const hashes = replies.map((r) => r.result!)
    expect(sorted(await Promise.all(hashes.map((h) => nonceOf(periodic, h))))).toEqual(consecutive(start, SENDS))
    expect(await pendingNonce(periodic, from)).toBe(start + SENDS)
    const block = (await periodic.http<string>('evm_mine', [])).result
    expect(block).toBe('0x0')
    const receipts = await Promise.all(hashes.map((h) => receiptNow(periodic, h)))
    const head = (await periodic.http<string>('eth_blockNumber')).result
    expect(receipts.every((r) => r.status === '0x1' && r.blockNumber === head)).toBe(true)
  })

  it('lets go of the lock when a send fails: reverting estimates among them, the others still consecutive', async () => {
    const from = account(4)
    const start = await pendingNonce(onDemand, from)
    // Every third one is sent to NOPE: its estimate reverts, inside the lock.
    const calls = transfers(from, 30).map((c, i) => (i % 3 === 2 ? { from, to: NOPE } : c))
    const replies = await sendTogether(onDemand, calls)
    const failed = replies.filter((_, i) => i % 3 === 2)
    const sent = replies.filter((_, i) => i % 3 !== 2)
    expect(failed.every((r) => r.error?.code === 3 && r.error.message === 'execution reverted: nope')).toBe(true)
    expect(sent.filter((r) => r.error !== undefined).map((r) => r.error)).toEqual([])
    expect(sorted(await Promise.all(sent.map((r) => nonceOf(onDemand, r.result!))))).toEqual(consecutive(start, sent.length))
    // One at a time: the failed send took no nonce, the next send gets the one it would have had.
    expect((await onDemand.http('eth_sendTransaction', [{ from, to: NOPE }])).error?.code).toBe(3)
    const next = await onDemand.http<string>('eth_sendTransaction', [{ from, to, value: '0x1' }])
    expect(await nonceOf(onDemand, next.result!)).toBe(start + sent.length)
  })

  it('answers sends whose estimates the serving thread leaves to the lane (they were -32005 on an idle lane)', async () => {
    const from = account(6)
    const start = await pendingNonce(onDemand, from)
    const filled = await onDemand.http<{ tx: { nonce: string; gas: string } }>('eth_fillTransaction', [{ from, to: COUNT }])
    expect(filled.error).toBeUndefined()
    expect(filled.result!.tx.nonce).toBe(`0x${start.toString(16)}`)
    const replies = await sendTogether(
      onDemand,
      Array.from({ length: 5 }, () => ({ from, to: COUNT })),
    )
    expect(replies.filter((r) => r.error !== undefined).map((r) => r.error)).toEqual([])
    const receipts = await Promise.all(replies.map((r) => receiptNow(onDemand, r.result!)))
    expect(receipts.every((r) => r.status === '0x1' && BigInt(r.gasUsed) > 1_000_000n)).toBe(true)
    expect(sorted(await Promise.all(replies.map((r) => nonceOf(onDemand, r.result!))))).toEqual(consecutive(start, 5))
  })

  it("viem's JSON-RPC account over WebSocket and ethers' JsonRpcSigner over HTTP, sending together from one account", async () => {
    const from = account(5)
    const start = await pendingNonce(onDemand, from)
    const chain = defineChain({
      id: 1337,
      name: 'sponge dev',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`http://127.0.0.1:${onDemand.node.httpPort}`], webSocket: [wsUrl(onDemand)] } },
    })
    // viem leaves nonce, fees and gas to the node for an account it holds no key of; ethers estimates the gas first.
    const viemWallet = createWalletClient({ account: from as Hex, chain, transport: webSocket() })
    const provider = new JsonRpcProvider(`http://127.0.0.1:${onDemand.node.httpPort}`, undefined, { staticNetwork: true, cacheTimeout: -1 })
    const signer = new JsonRpcSigner(provider, from)
    try {
      const hashes = await Promise.all([
        ...Array.from({ length: 10 }, (_, i) => viemWallet.sendTransaction({ to: to as Hex, value: BigInt(i + 1) })),
        ...Array.from({ length: 10 }, async (_, i) => (await signer.sendTransaction({ to, value: BigInt(i + 100) })).hash),
      ])
      const receipts = await Promise.all(hashes.map((h) => receiptNow(onDemand, h)))
      expect(receipts.every((r) => r.status === '0x1')).toBe(true)
      expect(sorted(await Promise.all(hashes.map((h) => nonceOf(onDemand, h))))).toEqual(consecutive(start, 20))
    } finally {
      provider.destroy()
      await (await viemWallet.transport.getRpcClient()).close()
    }
  })
})
