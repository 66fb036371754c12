import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signJwt } from '../engine/jwt.js'
import { postJson } from './http.js'
import type { Verdict } from './rpcCompat.js'
import { spawnNode } from '../testing/spawnNode.js'

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

interface Reply {
  result?: { status?: string; payloadStatus?: { status: string; validationError?: string | null }; validationError?: string | null }
  error?: { code: number; message: string }
}

function stepVerdict(step: Step, reply: Reply): string | undefined {
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

async function runCase(dir: string): Promise<string | undefined> {
  const s = JSON.parse(readFileSync(join(dir, 'steps.json'), 'utf8')) as Steps
  const work = mkdtempSync(join(tmpdir(), 'sponge-eest-'))
  const secret = randomBytes(32)
  writeFileSync(join(work, 'jwt.hex'), secret.toString('hex'))
  const node = await spawnNode([
    '--chain',
    join(dir, 'genesis.json'),
    '--datadir',
    join(work, 'data'),
    '--authrpc.jwtsecret',
    join(work, 'jwt.hex'),
    '--workers',
    '1',
  ])
  let id = 0
  const call = async (url: string, method: string, params: unknown[], auth: boolean): Promise<Reply> => {
    const headers: Record<string, string> = auth ? { authorization: `Bearer ${signJwt(secret)}` } : {}
    return JSON.parse(await postJson(url, JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), headers)) as Reply
  }
  const read = async (method: string, params: unknown[]) => (await call(node.httpUrl, method, params, false)) as { result: unknown }
  try {
    const chainId = (await read('eth_chainId', [])).result as string
    if (BigInt(chainId) !== BigInt(s.chainId)) return `chain id ${chainId}, want ${s.chainId}`
    const genesis = (await read('eth_getBlockByNumber', ['0x0', false])).result as { hash: string }
    if (genesis.hash !== s.genesisHash) return `genesis ${genesis.hash}, want ${s.genesisHash}`
    for (const step of s.steps) {
      const why = stepVerdict(step, await call(node.authUrl!, step.method, step.params, true))
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
    await node.stop()
    rmSync(work, { recursive: true, force: true })
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
