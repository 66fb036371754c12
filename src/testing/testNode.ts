import { writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { devAccounts, devGenesis } from '../chain/dev.js'
import type { GethGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'
import { signJwt } from '../engine/jwt.js'
import { type NodeOptions, type RunningNode, startNode } from '../node/node.js'
import { type Logger, silentLogger } from '../util/logger.js'
import type { Namespace } from '../rpc/methodTable.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { TEST_HTTP_THREADS, tempDatadir } from './paths.js'

export interface RpcReply<T = unknown> {
  status: number
  result?: T
  error?: { code: number; message: string }
}

/** One reply of a batch: `id` is the call's index in the batch. */
export interface BatchItemReply<T = unknown> {
  id: number
  result?: T
  error?: { code: number; message: string; data?: unknown }
}

export interface TestNode {
  node: RunningNode
  spec: ChainSpec
  http<T = unknown>(method: string, params?: unknown[]): Promise<RpcReply<T>>
  /** One HTTP body holding a JSON-RPC batch (ids 0…n-1); the replies in call order, and the HTTP status. */
  batch<T = unknown>(calls: [method: string, params: unknown[]][]): Promise<{ status: number; replies: BatchItemReply<T>[] }>
  /**
   * The same from another client: a connection from `localAddress` (any 127.x.y.z reaches the node on 127.0.0.1),
   * which the node tells apart from the other tests' requests, all from 127.0.0.1.
   */
  batchFrom<T = unknown>(
    localAddress: string,
    calls: [method: string, params: unknown[]][],
  ): Promise<{ status: number; replies: BatchItemReply<T>[] }>
  engine<T = unknown>(method: string, params?: unknown[], token?: string): Promise<RpcReply<T>>
  close(): Promise<void>
}

const SECRET = Buffer.alloc(32, 0x42)

async function call<T>(url: string, method: string, params: unknown[], headers: Record<string, string>): Promise<RpcReply<T>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const text = await res.text()
  const json = (text === '' ? {} : JSON.parse(text)) as { result?: T; error?: { code: number; message: string } }
  return { status: res.status, ...json }
}

async function batchCall<T>(url: string, calls: [string, unknown[]][]): Promise<{ status: number; replies: BatchItemReply<T>[] }> {
  const body = JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params })))
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const text = await res.text()
  if (res.status !== 200) return { status: res.status, replies: [] }
  const replies = JSON.parse(text) as BatchItemReply<T>[]
  return { status: res.status, replies: replies.sort((a, b) => a.id - b.id) }
}

/** One HTTP POST of a JSON body from `localAddress` (any 127.x.y.z reaches a node on 127.0.0.1): its status and text. */
export function postFrom(url: string, localAddress: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function batchFrom<T>(
  url: string,
  localAddress: string,
  calls: [string, unknown[]][],
): Promise<{ status: number; replies: BatchItemReply<T>[] }> {
  const body = JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params })))
  const { status, text } = await postFrom(url, localAddress, body)
  if (status !== 200) return { status, replies: [] }
  return { status, replies: (JSON.parse(text) as BatchItemReply<T>[]).sort((a, b) => a.id - b.id) }
}

/** Options of a small node on 127.0.0.1 with free ports and no Engine API endpoint; `overrides` win. */
export function localNodeOptions(datadir: string, overrides: Partial<NodeOptions> = {}): NodeOptions {
  return {
    datadir,
    http: { host: '127.0.0.1', port: 0, apis: ['eth', 'net', 'web3'] },
    workers: 1,
    maxQueue: 64,
    maxBodyBytes: 4096,
    maxBatch: 10,
    minerGasLimit: 60_000_000n,
    txPoolSize: 100,
    log: silentLogger,
    showProgress: false,
    ...(TEST_HTTP_THREADS === undefined ? {} : { httpThreads: TEST_HTTP_THREADS }),
    ...overrides,
  }
}

/** A node on 127.0.0.1 with free ports, on the dev chain (or the given genesis), for HTTP tests. */
export async function startTestNode(
  opts: {
    genesis?: GethGenesisFile
    apis?: Namespace[]
    dev?: NodeOptions['dev']
    log?: Logger
    maxQueue?: number
    /** Threads of the public lane (default 1). */
    workers?: number
    metrics?: boolean
    datadir?: string
    evmTimeoutMs?: number
    gasCap?: bigint
    logsMaxResults?: number
    maxReplyBytes?: number
    maxBatchReplyBytes?: number
    devAccounts?: { address: string; privateKey: string }[]
    healthMaxAge?: number
    /** --http.threads: serving threads on the public port (default: the node's, one per core). */
    httpThreads?: number
    /** c-kzg's setup loaded once the node serves, as `sponge node` does (default: on the first blob transaction). */
    kzgAtStart?: boolean
    /** false: every precompile call runs (`--no-precompile-cache`). */
    precompileCache?: boolean
  } = {},
): Promise<TestNode> {
  const datadir = opts.datadir ?? tempDatadir('node')
  const secretFile = join(datadir, 'jwt.hex')
  writeFileSync(secretFile, SECRET.toString('hex'))
  const spec = new ChainSpec(opts.genesis ?? devGenesis())
  const threads = opts.httpThreads ?? TEST_HTTP_THREADS
  const node = await startNode(spec, {
    datadir,
    http: { host: '127.0.0.1', port: 0, apis: opts.apis ?? ['eth', 'net', 'web3'] },
    authrpc: { host: '127.0.0.1', port: 0, jwtSecretPath: secretFile },
    workers: opts.workers ?? 1,
    maxQueue: opts.maxQueue ?? 256,
    maxBodyBytes: 10 * 1024 * 1024,
    maxBatch: 100,
    minerGasLimit: 60_000_000n,
    txPoolSize: 1000,
    ...(opts.dev === undefined ? {} : { dev: opts.dev }),
    log: opts.log ?? silentLogger,
    ...(opts.metrics === true ? { metrics: { host: '127.0.0.1', port: 0 } } : {}),
    ...(opts.evmTimeoutMs === undefined ? {} : { evmTimeoutMs: opts.evmTimeoutMs }),
    ...(opts.gasCap === undefined ? {} : { gasCap: opts.gasCap }),
    ...(opts.logsMaxResults === undefined ? {} : { logsMaxResults: opts.logsMaxResults }),
    ...(opts.maxReplyBytes === undefined ? {} : { maxReplyBytes: opts.maxReplyBytes }),
    ...(opts.maxBatchReplyBytes === undefined ? {} : { maxBatchReplyBytes: opts.maxBatchReplyBytes }),
    ...(opts.devAccounts === undefined ? {} : { devAccounts: opts.devAccounts }),
    ...(opts.precompileCache === undefined ? {} : { precompileCache: opts.precompileCache }),
    ...(opts.healthMaxAge === undefined ? {} : { healthMaxAge: opts.healthMaxAge }),
    ...(threads === undefined ? {} : { httpThreads: threads }),
    ...(opts.kzgAtStart === undefined ? {} : { kzgAtStart: opts.kzgAtStart }),
    showProgress: false,
  })
  const httpUrl = `http://127.0.0.1:${node.httpPort}`
  const authUrl = `http://127.0.0.1:${node.authPort}`
  return {
    node,
    spec,
    http: (method, params = []) => call(httpUrl, method, params, {}),
    batch: (calls) => batchCall(httpUrl, calls),
    batchFrom: (localAddress, calls) => batchFrom(httpUrl, localAddress, calls),
    engine: (method, params = [], token = signJwt(SECRET)) => call(authUrl, method, params, { authorization: `Bearer ${token}` }),
    close: () => node.close(),
  }
}

/**
 * The dev chain's genesis with contracts: `code` by address, each with `storage`. `beforeOsaka`: Prague stays the
 * last fork (Osaka's EIP-7825 caps a transaction's gas, and so a call's, at 2^24).
 */
export function devGenesisWith(
  code: Record<string, string>,
  opts: { storage?: Record<string, string>; beforeOsaka?: boolean } = {},
): GethGenesisFile {
  const genesis = devGenesis()
  for (const [address, c] of Object.entries(code))
    genesis.alloc[address] = { balance: '0x0', code: c, ...(opts.storage === undefined ? {} : { storage: opts.storage }) }
  if (opts.beforeOsaka === true) delete genesis.config.osakaTime
  return genesis
}

/** A signed EIP-1559 transfer from dev account `from` (by index). */
export function signedTransfer(
  spec: ChainSpec,
  from: number,
  nonce: number,
  opts: { to?: string; value?: bigint; tip?: bigint; gas?: bigint } = {},
): string {
  const key = hexToBytes(devAccounts()[from]!.privateKey)
  const tx = createFeeMarket1559Tx(
    {
      chainId: spec.chainId,
      nonce: BigInt(nonce),
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: opts.tip ?? 1_000_000_000n,
      gasLimit: opts.gas ?? 21_000n,
      to: (opts.to ?? devAccounts()[9]!.address) as `0x${string}`,
      value: opts.value ?? 1000n,
    },
    { common: spec.commonAt(1n, BigInt(Math.floor(Date.now() / 1000))) },
  ).sign(key)
  return bytesToHex(tx.serialize())
}

/** A receipt as the node answers it: the fields tests read. */
export interface ReceiptJson {
  status: string
  blockNumber: string
  blockHash: string
  transactionIndex: string
  transactionHash: string
  from: string
  to: string | null
  type: string
  gasUsed: string
  contractAddress: string | null
  logs: { address: string; topics: string[]; data: string }[]
}

/**
 * The receipt of a transaction, read once. On a dev chain that mines on demand (`startTestNode({ dev: {} })`),
 * eth_sendRawTransaction and eth_sendTransaction answer only once the block holding the transaction is made
 * (rpc/methods/transactions.ts, `submitted`), so right after the send the receipt must be there: no waiting, no
 * retry. Throws when it is not, so a test fails when that contract breaks.
 */
export async function receiptNow(n: TestNode, hash: string): Promise<ReceiptJson> {
  const r = await n.http<ReceiptJson | null>('eth_getTransactionReceipt', [hash])
  if (r.error !== undefined) throw new Error(`eth_getTransactionReceipt ${hash}: ${r.error.code} ${r.error.message}`)
  if (r.result === null || r.result === undefined) {
    throw new Error(`no receipt for ${hash} right after its send answered: a mine-on-demand dev chain answers a send once its block is made`)
  }
  return r.result
}

/**
 * Sends a transaction on a mine-on-demand dev chain (eth_sendRawTransaction with a signed transaction, or
 * eth_sendTransaction with a call object) and reads its receipt once, right after the answer (see receiptNow).
 * Throws when the send is refused or the receipt is not there.
 */
export async function sendMined(
  n: TestNode,
  method: 'eth_sendRawTransaction' | 'eth_sendTransaction',
  param: unknown,
): Promise<{ hash: string; receipt: ReceiptJson }> {
  const sent = await n.http<string>(method, [param])
  if (sent.error !== undefined || sent.result === undefined) throw new Error(`${method} refused: ${sent.error?.code} ${sent.error?.message}`)
  return { hash: sent.result, receipt: await receiptNow(n, sent.result) }
}

/** The code of a reply's error; undefined for a result. */
export const errorCode = (r: { error?: { code: number } }): number | undefined => r.error?.code

export const ZERO32 = `0x${'00'.repeat(32)}`

export { SECRET as TEST_JWT_SECRET }
