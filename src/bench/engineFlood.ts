import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { spawnNode } from '../testing/spawnNode.js'
import { assemble, logEmitter } from '../testing/asm.js'
import { mineAll, rpcClient, sendAll, signTxs } from './chainGen.js'
import { engineCycle } from './flood.js'
import { runWrk, writeBodiesScript } from './wrk.js'

// bench:load's `engine under public floods` (issue 31 item 3): a consensus client's block cycle through the
// authenticated port, its calls timed, alone and then under each public flood of 16 wrk connections on the HTTP port
// of the same node — eth_getLogs over a chain of many logs (ranges up to 100 blocks, half of them by address),
// batches of 10 such queries, batches of 100 state reads, and eth_call of a contract looping ~1 ms. The engine's
// p50/p99 under each flood are set beside its unloaded figures of the same run.

/** The floods' workload names, for bench:load's --only (the engine alone is measured whenever any runs). */
export const ENGINE_FLOODS = [
  'engine under eth_getLogs',
  'engine under eth_getLogs batches',
  'engine under state-read batches',
  'engine under eth_call',
]

const BLOCKS = 400
/** Logs a transaction of the chain emits, each with 256 bytes of data. */
const LOGS_PER_BLOCK = 50
const EMITTER = '0x00000000000000000000000000000000000e4a7e'
const LOOPER = '0x000000000000000000000000000000000000100b'
const TOPIC = `0x${'5e'.repeat(32)}` as const

/** LOGS_PER_BLOCK times LOG1(TOPIC) of 256 bytes, the block number in the first word. */
const EMITTER_CODE = logEmitter(LOGS_PER_BLOCK, TOPIC, 256)
/** Counts down from 20,000: ~1 ms of EVM a call. */
const LOOPER_CODE = assemble(['0x4e20', { label: 'top' }, '0x01', 'SWAP1', 'SUB', 'DUP1', { target: 'top' }, 'JUMPI', 'STOP'])

export interface EngineFloodRow {
  flood: string
  /** The flood's requests answered per second (a batch one), and their p50/p99 (wrk). */
  requestsPerSec: number
  floodP50ms: number
  floodP99ms: number
  blocks: number
  forkchoiceP50: number
  forkchoiceP99: number
  newPayloadP50: number
  newPayloadP99: number
  /** p99 under this flood as a multiple of the same run's unloaded p99 (issue 31 item 3's target: at most 3). */
  forkchoiceP99x: number
  newPayloadP99x: number
  failures: string[]
}

/** The bound: under any public flood an engine call's p99 stays within this multiple of its unloaded one. */
export const ENGINE_P99_BOUND = 3

const body = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', id, method, params })
const hex = (n: number) => `0x${n.toString(16)}`

/** A getLogs filter: a range of 1–100 blocks somewhere in the chain, by address every other one. */
function logFilter(i: number): object {
  const len = 1 + ((i * 37) % 100)
  const from = 1 + ((i * 101) % (BLOCKS - len))
  return { fromBlock: hex(from), toBlock: hex(from + len - 1), ...(i % 2 === 0 ? { address: EMITTER } : {}) }
}

export async function runEngineFlood(opts: {
  wrk: string
  work: string
  cli: string | undefined
  seconds: number
  connections: number
  only: RegExp | undefined
  log: (l: string) => void
  /** More of Sponge's flags (bench:load's --sponge-args: `--http.threads 2`). */
  spongeArgs?: string[]
}): Promise<EngineFloodRow[]> {
  const g = devGenesis()
  g.alloc[EMITTER] = { balance: '0x0', code: EMITTER_CODE }
  g.alloc[LOOPER] = { balance: '0x0', code: LOOPER_CODE }
  const file = join(opts.work, 'engine-flood-genesis.json')
  writeFileSync(file, JSON.stringify(g))
  const jwt = join(opts.work, 'engine-flood-jwt.hex')
  const secret = Buffer.alloc(32, 9)
  writeFileSync(jwt, secret.toString('hex'))
  const node = await spawnNode(
    ['--chain', file, '--datadir', join(opts.work, 'engine-flood'), '--no-mining', '--authrpc.jwtsecret', jwt, ...(opts.spongeArgs ?? [])],
    120_000,
    opts.cli,
  )
  try {
    const http = rpcClient(node.httpUrl)
    const engine = rpcClient(node.authUrl!, secret)
    // One emitting transaction a block: each account's nonces in order, BLOCKS blocks.
    const raws = signTxs(new ChainSpec(g), BLOCKS, () => ({ to: EMITTER, gasLimit: 1_000_000n }))
    const started = Date.now()
    for (const raw of raws) {
      await sendAll(node.httpUrl, [raw])
      await mineAll(engine, http)
    }
    const head = Number(BigInt((await http('eth_blockNumber', [])) as string))
    opts.log(`engine floods: ${head} blocks of ${LOGS_PER_BLOCK} logs made in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    const accounts = devAccounts().map((a) => a.address)
    const floods: { name: string; bodies: string[] }[] = [
      { name: 'eth_getLogs', bodies: Array.from({ length: 100 }, (_, i) => JSON.stringify(body('eth_getLogs', [logFilter(i)]))) },
      {
        name: 'eth_getLogs batches of 10',
        bodies: Array.from({ length: 20 }, (_, b) =>
          JSON.stringify(Array.from({ length: 10 }, (_, i) => body('eth_getLogs', [logFilter(b * 10 + i)], i))),
        ),
      },
      {
        name: 'state-read batches of 100',
        bodies: Array.from({ length: 20 }, (_, b) =>
          JSON.stringify(
            Array.from({ length: 100 }, (_, i) =>
              i % 2 === 0
                ? body('eth_getBalance', [accounts[(b + i) % accounts.length], 'latest'], i)
                : body('eth_getStorageAt', [accounts[(b + i) % accounts.length], hex(i), 'latest'], i),
            ),
          ),
        ),
      },
      { name: 'eth_call ~1 ms loop', bodies: [JSON.stringify(body('eth_call', [{ to: LOOPER }, 'latest']))] },
    ].filter((_, i) => opts.only === undefined || opts.only.test(ENGINE_FLOODS[i]!))
    const rows: EngineFloodRow[] = []
    const until = () => Date.now() + opts.seconds * 1000
    const alone = await engineCycle(engine, until())
    rows.push({ flood: 'none (unloaded)', requestsPerSec: 0, floodP50ms: 0, floodP99ms: 0, forkchoiceP99x: 1, newPayloadP99x: 1, ...alone })
    for (const f of floods) {
      // No counting script: wrk's Lua scanning each reply (megabytes of logs) was the flood's bottleneck.
      const script = writeBodiesScript(opts.work, `engine-flood-${rows.length}`, f.bodies)
      const end = until()
      const [r, e] = await Promise.all([runWrk(opts.wrk, node.httpUrl, script, opts.connections, opts.seconds), engineCycle(engine, end)])
      rows.push({
        flood: f.name,
        requestsPerSec: r.requestsPerSec,
        floodP50ms: r.p50ms,
        floodP99ms: r.p99ms,
        forkchoiceP99x: e.forkchoiceP99 / alone.forkchoiceP99,
        newPayloadP99x: e.newPayloadP99 / alone.newPayloadP99,
        ...e,
      })
    }
    const base = rows[0]!
    for (const r of rows) {
      const x = (v: number, b: number) => (r === base ? '' : ` (×${(v / b).toFixed(1)})`)
      opts.log(
        `engine under ${r.flood} (c=${opts.connections}): ${r.blocks} blocks, forkchoiceUpdated p50 ${r.forkchoiceP50.toFixed(1)} ms p99 ${r.forkchoiceP99.toFixed(1)}${x(r.forkchoiceP99, base.forkchoiceP99)}, ` +
          `newPayload p50 ${r.newPayloadP50.toFixed(1)} p99 ${r.newPayloadP99.toFixed(1)}${x(r.newPayloadP99, base.newPayloadP99)}, failures ${r.failures.length}` +
          (r === base ? '' : `; flood ${r.requestsPerSec.toFixed(0)} requests/s, p50 ${r.floodP50ms} ms p99 ${r.floodP99ms} ms`),
      )
    }
    const flooded = rows.slice(1)
    if (flooded.length > 0) {
      const within = (x: (r: EngineFloodRow) => number) => `${flooded.filter((r) => x(r) <= ENGINE_P99_BOUND).length}/${flooded.length}`
      const worst = (x: (r: EngineFloodRow) => number) => Math.max(...flooded.map(x)).toFixed(1)
      opts.log(
        `engine p99 within ×${ENGINE_P99_BOUND} of unloaded: forkchoiceUpdated ${within((r) => r.forkchoiceP99x)} floods (worst ×${worst((r) => r.forkchoiceP99x)}), ` +
          `newPayload ${within((r) => r.newPayloadP99x)} (worst ×${worst((r) => r.newPayloadP99x)})`,
      )
    }
    return rows
  } finally {
    await node.stop()
  }
}
