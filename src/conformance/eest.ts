import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signJwt } from '../engine/jwt.js'
import { spawnNode } from '../testing/spawnNode.js'
import { type CaseClient, type EngineCase, type Reply, runEngineCase } from './engineCase.js'
import { postJson } from './http.js'
import type { Verdict } from './rpcCompat.js'

/** A client of a node's two endpoints: a new HS256 token per Engine API call. */
export function httpCaseClient(httpUrl: string, authUrl: string, secret: Buffer): CaseClient {
  let id = 0
  const call = async (url: string, method: string, params: unknown[], headers: Record<string, string>): Promise<Reply> =>
    JSON.parse(await postJson(url, JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), headers)) as Reply
  return {
    engine: (method, params) => call(authUrl, method, params, { authorization: `Bearer ${signJwt(secret)}` }),
    read: (method, params) => call(httpUrl, method, params, {}),
  }
}

async function runCase(dir: string): Promise<string | undefined> {
  const c = JSON.parse(readFileSync(join(dir, 'steps.json'), 'utf8')) as EngineCase
  const work = mkdtempSync(join(tmpdir(), 'sponge-eest-'))
  const secret = randomBytes(32)
  writeFileSync(join(work, 'jwt.hex'), secret.toString('hex'))
  try {
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
    try {
      return await runEngineCase(c, httpCaseClient(node.httpUrl, node.authUrl!, secret))
    } finally {
      await node.stop()
    }
  } finally {
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
