import { type ChildProcess, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { spawnNode } from '../conformance/spawnNode.js'
import { type Rpc, mineOne, recipient, rpcClient, signTxs } from './chainGen.js'
import { assemble } from './workloads/asm.js'
import { runWrk, writeBodiesScript } from './wrk.js'

// bench:load's EVM-backed reads against anvil in the same run: eth_call (balanceOf over many holders, at latest),
// eth_estimateGas (a token transfer) and debug_traceTransaction (callTracer), on the same genesis, with the replies
// of both compared.

const word = (v: bigint | string) => `0x${BigInt(v).toString(16).padStart(64, '0')}`
const TOKEN = '0x00000000000000000000000000000000000c0de4'
const HOLDERS = 5000
const BALANCE_OF = '0x70a08231'

/** A token: balanceOf(address) (36 bytes of calldata) reads slot = address; otherwise transfer(to, amount) words. */
const TOKEN_CODE = assemble([
  'CALLDATASIZE', '0x24', 'EQ', { target: 'balanceOf' }, 'JUMPI',
  '0x20', 'CALLDATALOAD', 'CALLER', 'SLOAD',
  'DUP2', 'DUP2', 'LT', { target: 'fail' }, 'JUMPI',
  'SUB', 'CALLER', 'SSTORE',
  '0x00', 'CALLDATALOAD', 'DUP1', 'SLOAD', '0x20', 'CALLDATALOAD', 'ADD', 'SWAP1', 'SSTORE',
  'STOP',
  { label: 'balanceOf' }, '0x04', 'CALLDATALOAD', 'SLOAD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN',
  { label: 'fail' }, '0x00', 'DUP1', 'REVERT',
])

const holder = (i: number) => `0x${(0xa0000000 + i).toString(16).padStart(40, '0')}`

function genesis() {
  const g = devGenesis()
  const storage: Record<string, string> = {}
  for (let i = 0; i < HOLDERS; i++) storage[word(holder(i))] = word(BigInt(i + 1) * 10n ** 18n)
  for (const a of Object.keys(g.alloc).slice(-10)) storage[word(a)] = word(10n ** 30n)
  g.alloc[TOKEN] = { balance: '0x0', code: TOKEN_CODE, storage }
  return g
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** anvil from its npm package's platform binary, on the same genesis; resolves once it answers. */
async function startAnvil(genesisFile: string): Promise<{ url: string; proc: ChildProcess }> {
  const require = createRequire(import.meta.url)
  const bin = join(require.resolve('@foundry-rs/anvil-linux-amd64/package.json'), '..', 'bin', 'anvil')
  const port = await freePort()
  const proc = spawn(bin, ['--init', genesisFile, '--port', String(port), '--silent'], { stdio: 'ignore' })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    try {
      await rpcClient(url)('eth_chainId', [])
      return { url, proc }
    } catch {
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  proc.kill()
  throw new Error('anvil did not start')
}

export interface EvmReadRow {
  workload: string
  server: 'sponge' | 'anvil'
  connections: number
  requestsPerSec: number
  p50ms: number
  p99ms: number
  errors: number
  /** Of the sampled bodies, how many anvil answered with exactly the same result or error code. */
  identicalReplies?: string
}

async function post(url: string, body: string): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  const j = (await res.json()) as { result?: unknown; error?: { code: number } }
  return j.error === undefined ? j.result : { errorCode: j.error.code }
}

export async function runEvmReads(opts: {
  wrk: string
  work: string
  cli: string | undefined
  connections: number[]
  seconds: number
  only: RegExp | undefined
  log: (l: string) => void
}): Promise<EvmReadRow[]> {
  const g = genesis()
  const file = join(opts.work, 'evm-genesis.json')
  writeFileSync(file, JSON.stringify(g))
  const jwt = join(opts.work, 'jwt.hex')
  const secret = Buffer.alloc(32, 7)
  writeFileSync(jwt, secret.toString('hex'))
  const node = await spawnNode(
    ['--chain', file, '--datadir', join(opts.work, 'evm'), '--http.api', 'eth,net,web3,debug', '--no-mining', '--authrpc.jwtsecret', jwt],
    120_000,
    opts.cli,
  )
  const anvil = await startAnvil(file)
  const rows: EvmReadRow[] = []
  try {
    // One token transfer mined on both (same signed bytes, so the same hash), for the trace workload.
    const spec = new ChainSpec(g)
    const [raw] = signTxs(spec, 1, () => ({ to: TOKEN, data: `${word(recipient(1))}${word(5n).slice(2)}`, gasLimit: 100_000n }))
    const send = (url: string) => rpcClient(url)('eth_sendRawTransaction', [raw]) as Promise<string>
    const hash = await send(node.httpUrl)
    await send(anvil.url)
    const engine: Rpc = rpcClient(node.authUrl!, secret)
    await mineOne(engine, rpcClient(node.httpUrl))
    const body = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
    const from = Object.keys(g.alloc).slice(-10)
    const workloads = [
      {
        name: 'eth_call balanceOf',
        bodies: Array.from({ length: 1000 }, (_, i) => body('eth_call', [{ to: TOKEN, input: `${BALANCE_OF}${word(holder(i * 5)).slice(2)}` }, 'latest'])),
      },
      {
        name: 'eth_estimateGas token transfer',
        bodies: Array.from({ length: 200 }, (_, i) => body('eth_estimateGas', [{ from: from[i % 10], to: TOKEN, input: `${word(recipient(1000 + i))}${word(1n).slice(2)}` }])),
      },
      { name: 'debug_traceTransaction callTracer', bodies: [body('debug_traceTransaction', [hash, { tracer: 'callTracer' }])] },
    ].filter((w) => opts.only === undefined || opts.only.test(w.name))
    for (const w of workloads) {
      const sample = w.bodies.filter((_, i) => i % Math.max(1, Math.floor(w.bodies.length / 20)) === 0)
      let same = 0
      for (const b of sample) {
        const [ours, theirs] = [JSON.stringify(await post(node.httpUrl, b)), JSON.stringify(await post(anvil.url, b))]
        if (ours === theirs) same++
        else if (process.env.SPONGE_BENCH_DIFF !== undefined) opts.log(`differs: ${b}\n  sponge ${ours.slice(0, 600)}\n  anvil  ${theirs.slice(0, 600)}`)
      }
      const script = writeBodiesScript(opts.work, w.name.replace(/\W+/g, '_'), w.bodies)
      for (const c of opts.connections) {
        for (const [server, url] of [['sponge', node.httpUrl], ['anvil', anvil.url]] as const) {
          await runWrk(opts.wrk, url, script, c, 1)
          const r = await runWrk(opts.wrk, url, script, c, opts.seconds)
          const row: EvmReadRow = { workload: w.name, server, connections: c, requestsPerSec: r.requestsPerSec, p50ms: r.p50ms, p99ms: r.p99ms, errors: r.errors }
          if (server === 'sponge') row.identicalReplies = `${same}/${sample.length}`
          rows.push(row)
          opts.log(`${w.name} ${server} c=${c}: ${r.requestsPerSec.toFixed(0)} req/s, p50 ${r.p50ms} ms, p99 ${r.p99ms} ms, errors ${r.errors}${server === 'sponge' ? `, replies identical to anvil's ${same}/${sample.length}` : ''}`)
        }
      }
    }
  } finally {
    anvil.proc.kill()
    await node.stop()
  }
  return rows
}
