import { writeFileSync } from 'node:fs'
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
import { tempDatadir } from './paths.js'

export interface RpcReply<T = unknown> {
  status: number
  result?: T
  error?: { code: number; message: string }
}

export interface TestNode {
  node: RunningNode
  spec: ChainSpec
  http<T = unknown>(method: string, params?: unknown[]): Promise<RpcReply<T>>
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
    ...overrides,
  }
}

/** A node on 127.0.0.1 with free ports, on the dev chain (or the given genesis), for HTTP tests. */
export async function startTestNode(
  opts: { genesis?: GethGenesisFile; apis?: Namespace[]; dev?: NodeOptions['dev']; log?: Logger; maxQueue?: number; metrics?: boolean; datadir?: string; evmTimeoutMs?: number; gasCap?: bigint; logsMaxResults?: number; devAccounts?: { address: string; privateKey: string }[] } = {},
): Promise<TestNode> {
  const datadir = opts.datadir ?? tempDatadir('node')
  const secretFile = join(datadir, 'jwt.hex')
  writeFileSync(secretFile, SECRET.toString('hex'))
  const spec = new ChainSpec(opts.genesis ?? devGenesis())
  const node = await startNode(spec, {
    datadir,
    http: { host: '127.0.0.1', port: 0, apis: opts.apis ?? ['eth', 'net', 'web3'] },
    authrpc: { host: '127.0.0.1', port: 0, jwtSecretPath: secretFile },
    workers: 1,
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
    ...(opts.devAccounts === undefined ? {} : { devAccounts: opts.devAccounts }),
    showProgress: false,
  })
  const httpUrl = `http://127.0.0.1:${node.httpPort}`
  const authUrl = `http://127.0.0.1:${node.authPort}`
  return {
    node,
    spec,
    http: (method, params = []) => call(httpUrl, method, params, {}),
    engine: (method, params = [], token = signJwt(SECRET)) => call(authUrl, method, params, { authorization: `Bearer ${token}` }),
    close: () => node.close(),
  }
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

export const ZERO32 = `0x${'00'.repeat(32)}`

export { SECRET as TEST_JWT_SECRET }
