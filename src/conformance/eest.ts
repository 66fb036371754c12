import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { signJwt } from '../engine/jwt.js'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'
import { type CaseClient, type EngineCase, type Reply, runEngineCase } from './engineCase.js'

export { stepVerdict } from './engineCase.js'
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

/** A node started on a case's genesis, with a JWT secret of its own: the case's client, and how to stop it. */
export interface CaseNode extends CaseClient {
  node: SpawnedNode
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
  return {
    ...httpCaseClient(node.httpUrl, node.authUrl!, secret),
    node,
    stop: async () => {
      await node.stop()
      rmSync(work, { recursive: true, force: true })
    },
  }
}

/** Why the node does not run the case's chain, or undefined when its chain id and genesis hash are the case's. */
export async function genesisVerdict(n: CaseClient, chainId: bigint, genesisHash: string): Promise<string | undefined> {
  const got = (await n.read('eth_chainId', [])).result as string
  if (BigInt(got) !== chainId) return `chain id ${got}, want ${chainId}`
  const genesis = (await n.read('eth_getBlockByNumber', ['0x0', false])).result as { hash: string }
  return genesis.hash === genesisHash ? undefined : `genesis ${genesis.hash}, want ${genesisHash}`
}

async function runCase(dir: string): Promise<string | undefined> {
  const c = JSON.parse(readFileSync(join(dir, 'steps.json'), 'utf8')) as EngineCase
  // A fresh node per case, each a handful of blocks and no blob sent: the warm-up's second of CPU and the KZG
  // setup's three would outweigh the case.
  const n = await startCaseNode(join(dir, 'genesis.json'), ['--no-warmup', '--no-kzg-preload'])
  try {
    return await runEngineCase(c, n)
  } finally {
    await n.stop()
  }
}

/**
 * Runs every converted execution-spec-tests case, each on a fresh node started with the case's genesis, `jobs` of
 * them at a time (a case is mostly its node's start and stop, which leave a core idle part of the time; measured in
 * docs/performance.md). Verdicts are printed in the cases' order, whichever finishes first.
 */
export async function runEest(dir: string, print: (line: string) => void, only?: RegExp, jobs = 1): Promise<Verdict[]> {
  const cases = readdirSync(dir)
    .filter((d) => statSync(join(dir, d)).isDirectory() && (only === undefined || only.test(d)))
    .sort()
  const verdicts: Verdict[] = []
  const done = new Map<number, Verdict>()
  let next = 0
  const runNext = async (): Promise<void> => {
    for (let i = next++; i < cases.length; i = next++) {
      const name = cases[i]!
      let reason: string | undefined
      try {
        reason = await runCase(join(dir, name))
      } catch (e) {
        reason = `runner: ${(e as Error).message.split('\n')[0]}`
      }
      done.set(i, { name, ok: reason === undefined, ...(reason === undefined ? {} : { reason }) })
      for (let v = done.get(verdicts.length); v !== undefined; v = done.get(verdicts.length)) {
        verdicts.push(v)
        print(v.reason === undefined ? `PASS ${v.name}` : `FAIL ${v.name}: ${v.reason}`)
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, runNext))
  return verdicts
}
