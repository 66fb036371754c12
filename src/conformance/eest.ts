import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signJwt } from '../engine/jwt.js'
import { postJson } from './http.js'
import type { Verdict } from './rpcCompat.js'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'

type Expect = string | (string | { errorCode: number })[]

interface Step {
  method: string
  params: unknown[]
  expect: Expect
}

interface Account {
  balance?: string
  nonce?: string
  code?: string
  storage?: Record<string, string>
}

interface Steps {
  id: string
  chainId: string
  genesisHash: string
  steps: Step[]
  final: { lastblockhash: string; accounts: Record<string, Account> }
}

export interface Reply {
  result?: { status?: string; payloadStatus?: { status: string; validationError?: string | null }; validationError?: string | null }
  error?: { code: number; message: string }
}

/** Why the answer to a call is not the one it expects, or undefined when it is. */
export function stepVerdict(step: Pick<Step, 'method' | 'expect'>, reply: Reply): string | undefined {
  const allowed = Array.isArray(step.expect) ? step.expect : [step.expect]
  if (reply.error !== undefined) {
    const ok = allowed.some((a) => typeof a === 'object' && a.errorCode === reply.error!.code)
    return ok ? undefined : `${step.method}: error ${reply.error.code} ${reply.error.message}, want ${JSON.stringify(step.expect)}`
  }
  const status = reply.result?.status ?? reply.result?.payloadStatus?.status
  if (allowed.includes(status as string)) return undefined
  const why = reply.result?.validationError ?? reply.result?.payloadStatus?.validationError ?? ''
  return `${step.method}: ${status} ${why ?? ''}, want ${JSON.stringify(step.expect)}`
}

const num = (v: string | undefined) => BigInt(v ?? '0x0')

/** A node started on a case's genesis, with a JWT secret of its own, and the calls a runner makes to it. */
export interface CaseNode {
  node: SpawnedNode
  /** An authenticated Engine API call (a new token each). */
  engine(method: string, params: unknown[]): Promise<Reply>
  /** A public JSON-RPC call. */
  read(method: string, params: unknown[]): Promise<{ result: unknown }>
  /** Stops the node and removes its datadir. */
  stop(): Promise<void>
}

/** Starts `sponge node` on `genesisFile` with a fresh datadir under the temp dir (`args`: more flags; `cli`: another CLI script). */
export async function startCaseNode(genesisFile: string, args: string[] = [], cli?: string): Promise<CaseNode> {
  const work = mkdtempSync(join(tmpdir(), 'sponge-eest-'))
  const secret = randomBytes(32)
  writeFileSync(join(work, 'jwt.hex'), secret.toString('hex'))
  let node: SpawnedNode
  try {
    node = await spawnNode(
      ['--chain', genesisFile, '--datadir', join(work, 'data'), '--authrpc.jwtsecret', join(work, 'jwt.hex'), '--workers', '1', ...args],
      120_000,
      cli,
    )
  } catch (e) {
    rmSync(work, { recursive: true, force: true })
    throw e
  }
  let id = 0
  const call = async (url: string, method: string, params: unknown[], auth: boolean): Promise<Reply> => {
    const headers: Record<string, string> = auth ? { authorization: `Bearer ${signJwt(secret)}` } : {}
    return JSON.parse(await postJson(url, JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), headers)) as Reply
  }
  return {
    node,
    engine: (method, params) => call(node.authUrl!, method, params, true),
    read: async (method, params) => (await call(node.httpUrl, method, params, false)) as { result: unknown },
    stop: async () => {
      await node.stop()
      rmSync(work, { recursive: true, force: true })
    },
  }
}

/** Why the node does not start on the case's chain, or undefined when its chain id and genesis hash are the case's. */
export async function genesisVerdict(n: CaseNode, chainId: bigint, genesisHash: string): Promise<string | undefined> {
  const got = (await n.read('eth_chainId', [])).result as string
  if (BigInt(got) !== chainId) return `chain id ${got}, want ${chainId}`
  const genesis = (await n.read('eth_getBlockByNumber', ['0x0', false])).result as { hash: string }
  return genesis.hash === genesisHash ? undefined : `genesis ${genesis.hash}, want ${genesisHash}`
}

async function runCase(dir: string): Promise<string | undefined> {
  const s = JSON.parse(readFileSync(join(dir, 'steps.json'), 'utf8')) as Steps
  const n = await startCaseNode(join(dir, 'genesis.json'))
  const read = n.read
  try {
    const wrongChain = await genesisVerdict(n, BigInt(s.chainId), s.genesisHash)
    if (wrongChain !== undefined) return wrongChain
    for (const step of s.steps) {
      const why = stepVerdict(step, await n.engine(step.method, step.params))
      if (why !== undefined) return why
    }
    const latest = (await read('eth_getBlockByNumber', ['latest', false])).result as { hash: string }
    if (latest.hash !== s.final.lastblockhash) return `head ${latest.hash}, want ${s.final.lastblockhash}`
    for (const [address, want] of Object.entries(s.final.accounts)) {
      const balance = (await read('eth_getBalance', [address, 'latest'])).result as string
      if (want.balance !== undefined && num(balance) !== num(want.balance)) return `${address} balance ${balance}, want ${want.balance}`
      const nonce = (await read('eth_getTransactionCount', [address, 'latest'])).result as string
      if (want.nonce !== undefined && num(nonce) !== num(want.nonce)) return `${address} nonce ${nonce}, want ${want.nonce}`
      const code = (await read('eth_getCode', [address, 'latest'])).result as string
      if (want.code !== undefined && code.toLowerCase() !== want.code.toLowerCase()) return `${address} code differs`
      for (const [slot, value] of Object.entries(want.storage ?? {})) {
        const got = (await read('eth_getStorageAt', [address, slot, 'latest'])).result as string
        if (num(got) !== num(value)) return `${address} storage ${slot} = ${got}, want ${value}`
      }
    }
    return undefined
  } finally {
    await n.stop()
  }
}

/** Runs every converted execution-spec-tests case: each on a fresh node started with the case's genesis. */
export async function runEest(dir: string, print: (line: string) => void, only?: RegExp): Promise<Verdict[]> {
  const cases = readdirSync(dir)
    .filter((d) => statSync(join(dir, d)).isDirectory() && (only === undefined || only.test(d)))
    .sort()
  const verdicts: Verdict[] = []
  for (const name of cases) {
    let reason: string | undefined
    try {
      reason = await runCase(join(dir, name))
    } catch (e) {
      reason = `runner: ${(e as Error).message.split('\n')[0]}`
    }
    verdicts.push({ name, ok: reason === undefined, ...(reason === undefined ? {} : { reason }) })
    print(reason === undefined ? `PASS ${name}` : `FAIL ${name}: ${reason}`)
  }
  return verdicts
}
