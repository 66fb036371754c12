import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { devAccounts } from '../chain/dev.js'
import type { ChainSpec } from '../chain/spec.js'
import { signJwt } from '../engine/jwt.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'

const ZERO32 = `0x${'00'.repeat(32)}`

/**
 * fetch with one retry: uWS closes keep-alive connections idle for ~10 s, and undici may reuse one just as it closes
 * (a load run idles that long while it signs transactions).
 */
export async function post(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch {
    return fetch(url, init)
  }
}

export type Rpc = (method: string, params: unknown[]) => Promise<unknown>

export function rpcClient(url: string, jwtSecret?: Buffer): Rpc {
  let id = 0
  return async (method, params) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (jwtSecret !== undefined) headers.authorization = `Bearer ${signJwt(jwtSecret)}`
    const res = await post(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) })
    const j = (await res.json()) as { result?: unknown; error?: { message: string } }
    if (j.error !== undefined) throw new Error(`${method}: ${j.error.message}`)
    return j.result
  }
}

/** What varies between the transactions of a workload; sender, nonce and fees are chainGen's. */
export interface TxShape {
  to: string
  data?: string
  value?: bigint
  gasLimit: bigint
}

/**
 * Signed EIP-1559 transactions from the dev accounts, round-robin over them: transaction i is `shape(i)` with the
 * nonce that follows. `first` continues an earlier call's sequence.
 */
export function signTxs(spec: ChainSpec, total: number, shape: (i: number) => TxShape, first = 0): string[] {
  const accounts = devAccounts()
  const keys = accounts.map((a) => hexToBytes(a.privateKey))
  const common = spec.commonAt(1n, 2n ** 40n)
  const out: string[] = []
  for (let i = first; i < first + total; i++) {
    const { to, data, value, gasLimit } = shape(i)
    const tx = createFeeMarket1559Tx(
      {
        chainId: spec.chainId,
        nonce: BigInt(Math.floor(i / accounts.length)),
        maxFeePerGas: 50_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
        gasLimit,
        to: hexToBytes(to),
        value: value ?? 0n,
        data: hexToBytes(data ?? '0x'),
      },
      { common },
    ).sign(keys[i % accounts.length]!)
    out.push(bytesToHex(tx.serialize()))
  }
  return out
}

/** A fresh recipient per transaction: every transfer creates an account (or a storage slot). */
export function recipient(i: number): string {
  return `0x${(0x100000 + i).toString(16).padStart(40, '0')}`
}

/** Plain ETH transfers of 1 wei to fresh addresses. */
export function signTransfers(spec: ChainSpec, total: number, first = 0): string[] {
  return signTxs(spec, total, (i) => ({ to: recipient(i), value: 1n, gasLimit: 21_000n }), first)
}

/** Sends raw transactions in JSON-RPC batches of 100; returns their hashes. */
export async function sendAll(url: string, raws: string[]): Promise<string[]> {
  const hashes: string[] = []
  for (let i = 0; i < raws.length; i += 100) {
    const batch = raws.slice(i, i + 100).map((r, k) => ({ jsonrpc: '2.0', id: i + k, method: 'eth_sendRawTransaction', params: [r] }))
    const res = await post(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) })
    for (const reply of (await res.json()) as { result?: string; error?: { message: string } }[]) {
      if (reply.error !== undefined) throw new Error(`eth_sendRawTransaction: ${reply.error.message}`)
      hashes.push(reply.result!)
    }
  }
  return hashes
}

/** What mineOne made, and when its head-setting forkchoiceUpdated went out and was answered (performance.now()). */
export interface MinedBlock {
  transactions: number
  blockNumber: number
  forkchoiceSentAt: number
  forkchoiceAnsweredAt: number
}

/** One block through the engine from whatever the pool holds (the soak's writer). */
export async function mineOne(engine: Rpc, http: Rpc): Promise<MinedBlock> {
  const head = (await http('eth_getBlockByNumber', ['latest', false])) as { hash: string; timestamp: string }
  const t = Math.max(Math.floor(Date.now() / 1000), Number(BigInt(head.timestamp)) + 1)
  const fc = (await engine('engine_forkchoiceUpdatedV3', [
    { headBlockHash: head.hash, safeBlockHash: head.hash, finalizedBlockHash: head.hash },
    {
      timestamp: `0x${t.toString(16)}`,
      prevRandao: ZERO32,
      suggestedFeeRecipient: `0x${'00'.repeat(20)}`,
      withdrawals: [],
      parentBeaconBlockRoot: ZERO32,
    },
  ])) as { payloadId: string }
  const env = (await engine('engine_getPayloadV5', [fc.payloadId])) as { executionPayload: PayloadCall['payload'] }
  const p = env.executionPayload
  await engine('engine_newPayloadV4', [p, [], ZERO32, []])
  const forkchoiceSentAt = performance.now()
  await engine('engine_forkchoiceUpdatedV3', [{ headBlockHash: p.blockHash, safeBlockHash: p.blockHash, finalizedBlockHash: p.blockHash }, null])
  const forkchoiceAnsweredAt = performance.now()
  return { transactions: p.transactions.length, blockNumber: Number(BigInt(p.blockNumber)), forkchoiceSentAt, forkchoiceAnsweredAt }
}

export interface PayloadCall {
  payload: { blockHash: string; blockNumber: string; gasUsed: string; transactions: string[] }
}

/**
 * The last block timestamp mineAll asked for. Each call asks for a later one: the same attributes on the same head
 * name the same payload, and a build is made once (a second call within the same second got the empty build that
 * ended the first, whatever had been pooled since).
 */
let lastTimestamp = 0

/** Makes blocks through the engine until the pool is empty; returns each block's payload (for replay). */
export async function mineAll(engine: Rpc, http: Rpc): Promise<PayloadCall[]> {
  const out: PayloadCall[] = []
  for (let guard = 0; guard < 1000; guard++) {
    const head = (await http('eth_getBlockByNumber', ['latest', false])) as { hash: string; timestamp: string }
    const t = Math.max(lastTimestamp + 1, Math.floor(Date.now() / 1000), Number(BigInt(head.timestamp)) + 1)
    lastTimestamp = t
    const fc = (await engine('engine_forkchoiceUpdatedV3', [
      { headBlockHash: head.hash, safeBlockHash: head.hash, finalizedBlockHash: head.hash },
      {
        timestamp: `0x${t.toString(16)}`,
        prevRandao: ZERO32,
        suggestedFeeRecipient: `0x${'00'.repeat(20)}`,
        withdrawals: [],
        parentBeaconBlockRoot: ZERO32,
      },
    ])) as { payloadId: string }
    const env = (await engine('engine_getPayloadV5', [fc.payloadId])) as { executionPayload: PayloadCall['payload'] }
    const p = env.executionPayload
    if (p.transactions.length === 0) return out
    await engine('engine_newPayloadV4', [p, [], ZERO32, []])
    await engine('engine_forkchoiceUpdatedV3', [{ headBlockHash: p.blockHash, safeBlockHash: p.blockHash, finalizedBlockHash: p.blockHash }, null])
    out.push({ payload: p })
  }
  throw new Error('pool did not drain')
}
