import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { postJson } from './http.js'
import { rpcCompatCases } from '../testing/ioCase.js'
import { judge } from '../testing/judge.js'
import { spawnNode } from '../testing/spawnNode.js'

export interface Verdict {
  name: string
  ok: boolean
  reason?: string
}

export interface RpcCompatOptions {
  dir: string
  /** Method folders not served yet: reported as skipped, never as passed. */
  skip: string[]
  engineHeaders?: () => Record<string, string>
  jwtSecretFile?: string
  /** More of the node's flags (`--http.threads 4`). */
  nodeArgs?: string[]
}

/** Runs every rpc-compat case against one node started on the conformance chain. */
export async function runRpcCompat(opts: RpcCompatOptions, print: (line: string) => void): Promise<Verdict[]> {
  const datadir = mkdtempSync(join(tmpdir(), 'sponge-rpc-compat-'))
  const extra = opts.jwtSecretFile === undefined ? [] : ['--authrpc.jwtsecret', opts.jwtSecretFile]
  const node = await spawnNode([
    '--chain',
    join(opts.dir, 'genesis.json'),
    '--import',
    join(opts.dir, 'chain.rlp'),
    '--datadir',
    datadir,
    // The namespaces geth serves in the reference harness (its txpool cases among them).
    '--http.api',
    'eth,net,web3,debug,txpool,testing',
    ...extra,
    ...(opts.nodeArgs ?? []),
  ])
  const verdicts: Verdict[] = []
  try {
    if (node.authUrl !== undefined && opts.engineHeaders !== undefined) {
      const fcu = readFileSync(join(opts.dir, 'headfcu.json'), 'utf8')
      const reply = await postJson(node.authUrl, fcu, opts.engineHeaders())
      if (!reply.includes('"VALID"')) throw new Error(`headfcu.json was not accepted: ${reply}`)
    }
    for (const c of rpcCompatCases(opts.dir)) {
      const method = c.name.split('/')[0]!
      if (opts.skip.includes(method)) {
        print(`SKIP ${c.name} (${method} not served yet)`)
        continue
      }
      let reason: string | undefined
      for (const ex of c.exchanges) {
        const actual = await postJson(node.httpUrl, ex.request)
        reason = judge(ex.expected, actual, c.speconly)
        if (reason !== undefined) break
      }
      verdicts.push({ name: c.name, ok: reason === undefined, ...(reason === undefined ? {} : { reason }) })
      print(reason === undefined ? `PASS ${c.name}` : `FAIL ${c.name}: ${reason}`)
    }
  } finally {
    await node.stop()
    rmSync(datadir, { recursive: true, force: true })
  }
  return verdicts
}
