import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { postJson } from './http.js'
import { loadIoCases } from './ioCase.js'
import { judge } from './judge.js'
import { spawnNode } from '../testing/spawnNode.js'

export interface Verdict {
  name: string
  ok: boolean
  reason?: string
}

/** The folders of tests-surface whose methods Sponge serves (the rest of the wider surface is not built yet). */
export const SURFACE_SERVED = [
  'debug_getRawBlock',
  'debug_getRawHeader',
  'debug_getRawReceipts',
  'debug_getRawTransaction',
  'debug_traceBlockByNumber',
  'debug_traceTransaction',
  'eth_call',
  'eth_createAccessList',
  'eth_getLogs',
  'eth_estimateGas',
  'eth_getProof',
  'eth_getStorageValues',
  'eth_simulateV1',
]

export interface RpcCompatOptions {
  dir: string
  /** Method folders not served yet: reported as skipped, never as passed. */
  skip: string[]
  engineHeaders?: () => Record<string, string>
  jwtSecretFile?: string
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
  ])
  const verdicts: Verdict[] = []
  try {
    if (node.authUrl !== undefined && opts.engineHeaders !== undefined) {
      const fcu = readFileSync(join(opts.dir, 'headfcu.json'), 'utf8')
      const reply = await postJson(node.authUrl, fcu, opts.engineHeaders())
      if (!reply.includes('"VALID"')) throw new Error(`headfcu.json was not accepted: ${reply}`)
    }
    // tests-surface cases join the suite method by method, as the methods land; all run in path order, as the
    // reference harness runs its one folder.
    const cases = [
      ...loadIoCases(join(opts.dir, 'tests')),
      ...loadIoCases(join(opts.dir, 'tests-surface')).filter((c) => SURFACE_SERVED.includes(c.name.split('/')[0]!)),
    ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const c of cases) {
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
