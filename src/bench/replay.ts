import type { GethGenesisFile } from '../chain/genesis.js'
import { spawnNode } from '../testing/spawnNode.js'
import { type PayloadCall, rpcClient } from './chainGen.js'
import { kzgLoaded } from './nodeSettled.js'
import { runPlainEthereumjs } from '../testing/plainEthereumjs.js'
import { PHASES, type PhaseName } from '../util/blockPhases.js'

export interface BlockTiming {
  number: string
  txs: number
  gasUsed: number
  newPayloadMs: number
  fcuMs: number
}

export interface Totals {
  seconds: number
  txPerSec: number
  mgasPerSec: number
}

/** Milliseconds per block in each phase (util/blockPhases.ts), as the node's /metrics counted them. */
export type PhaseSplit = Record<PhaseName, number>

export interface ReplayResult {
  blocks: BlockTiming[]
  /** Where the node's blocks' time went: over all blocks, and over the warm ones (after the first). */
  phases?: { all: PhaseSplit; warm: PhaseSplit }
  plainEthereumjsMs: number[]
  sponge: Totals
  plain: Totals
  /** Sponge's transactions/s over plain EthereumJS's, same blocks, same run. */
  speedup: number
}

const ZERO32 = `0x${'00'.repeat(32)}`

/**
 * The write path against the baseline: `payloads` through engine_newPayloadV4 (+ forkchoiceUpdatedV3) on a fresh
 * node started with `nodeArgs`, one block at a time and timed from the client's side, then the same blocks through
 * plain EthereumJS runBlock with its default crypto.
 */
export async function replayAgainstPlain(opts: {
  nodeArgs: string[]
  jwtSecret: Buffer
  genesis: GethGenesisFile
  payloads: PayloadCall[]
  cli?: string
  log: (line: string) => void
  /** How long the node may take to start: writing a large genesis state takes minutes. */
  startTimeoutMs?: number
  /** The node keeps metrics, and its blocks' phases are read from them (off: the node as it runs by default). */
  phases?: boolean
}): Promise<ReplayResult> {
  opts.log(`replaying ${opts.payloads.length} blocks through engine_newPayloadV4 on a fresh node…`)
  const args = opts.phases === true ? [...opts.nodeArgs, '--metrics', '--metrics.port', '0'] : opts.nodeArgs
  const node = await spawnNode(args, opts.startTimeoutMs ?? 120_000, opts.cli)
  const metricsUrl = opts.phases === true ? /metrics on (http:\/\/[\d.:]+\/metrics)/.exec(node.log())?.[1] : undefined
  if (opts.phases === true && metricsUrl === undefined) throw new Error('the replaying node did not say where its metrics are')
  const blocks: BlockTiming[] = []
  const counted: PhaseCount[] = []
  try {
    const engine = rpcClient(node.authUrl!, opts.jwtSecret)
    await engine('eth_chainId', []) // a first request, so that connection set-up is not timed
    await kzgLoaded(node)
    for (const { payload } of opts.payloads) {
      const t0 = performance.now()
      const st = (await engine('engine_newPayloadV4', [payload, [], ZERO32, []])) as { status: string; validationError?: string }
      const t1 = performance.now()
      if (st.status !== 'VALID') throw new Error(`replay block ${payload.blockNumber}: ${st.status} ${st.validationError ?? ''}`)
      const hash = payload.blockHash
      await engine('engine_forkchoiceUpdatedV3', [{ headBlockHash: hash, safeBlockHash: hash, finalizedBlockHash: hash }, null])
      blocks.push({
        number: payload.blockNumber,
        txs: payload.transactions.length,
        gasUsed: Number(BigInt(payload.gasUsed)),
        newPayloadMs: t1 - t0,
        fcuMs: performance.now() - t1,
      })
      if (metricsUrl !== undefined && (blocks.length === 1 || blocks.length === opts.payloads.length)) counted.push(await scrapePhases(metricsUrl))
    }
  } finally {
    await node.stop()
  }
  opts.log('the same blocks through plain EthereumJS runBlock (default crypto)…')
  const plainMs = await runPlainEthereumjs(opts.genesis, opts.payloads as never)
  const totals = (ms: number[]): Totals => {
    const seconds = ms.reduce((a, b) => a + b, 0) / 1000
    const txs = blocks.reduce((a, b) => a + b.txs, 0)
    const gas = blocks.reduce((a, b) => a + b.gasUsed, 0)
    return { seconds, txPerSec: txs / seconds, mgasPerSec: gas / 1e6 / seconds }
  }
  const sponge = totals(blocks.map((b) => b.newPayloadMs))
  const plain = totals(plainMs)
  const phases =
    counted.length === 0
      ? undefined
      : { all: perBlock(counted.at(-1)!, undefined), warm: counted.length > 1 ? perBlock(counted[1]!, counted[0]) : perBlock(counted[0]!, undefined) }
  return { blocks, plainEthereumjsMs: plainMs, sponge, plain, speedup: sponge.txPerSec / plain.txPerSec, ...(phases === undefined ? {} : { phases }) }
}

interface PhaseCount {
  seconds: Record<PhaseName, number>
  blocks: number
}

/** The node's block phase counters now. */
async function scrapePhases(url: string): Promise<PhaseCount> {
  const text = await (await fetch(url)).text()
  const seconds = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<PhaseName, number>
  for (const m of text.matchAll(/^sponge_block_phase_seconds_total\{phase="(\w+)"\} ([\d.e+-]+)$/gm)) {
    if ((PHASES as readonly string[]).includes(m[1]!)) seconds[m[1] as PhaseName] = Number(m[2])
  }
  const blocks = Number(/^sponge_block_phase_blocks_total ([\d.e+-]+)$/m.exec(text)?.[1] ?? 0)
  return { seconds, blocks }
}

/** Milliseconds per block in each phase between two readings (`before` undefined: since the start). */
function perBlock(after: PhaseCount, before: PhaseCount | undefined): PhaseSplit {
  const n = after.blocks - (before?.blocks ?? 0)
  const out = {} as PhaseSplit
  for (const p of PHASES) out[p] = n === 0 ? 0 : ((after.seconds[p] - (before?.seconds[p] ?? 0)) * 1000) / n
  return out
}

/** A split as text: each phase's ms per block and share of their sum. */
export function describePhases(split: PhaseSplit): string {
  const total = PHASES.reduce((a, p) => a + split[p], 0)
  return `${total.toFixed(0)} ms/block: ${PHASES.map((p) => `${p} ${split[p].toFixed(1)} (${total === 0 ? 0 : Math.round((100 * split[p]) / total)}%)`).join(', ')}`
}

export function describeReplay(r: ReplayResult): string {
  const phases = r.phases === undefined ? '' : `; warm blocks in the node ${describePhases(r.phases.warm)}`
  return `newPayloadV4 ${r.sponge.txPerSec.toFixed(0)} tx/s, ${r.sponge.mgasPerSec.toFixed(1)} Mgas/s; plain EthereumJS runBlock ${r.plain.txPerSec.toFixed(0)} tx/s, ${r.plain.mgasPerSec.toFixed(1)} Mgas/s; ratio ${r.speedup.toFixed(2)}×${phases}`
}

/** The per-block table of a replay, for the HTML reports. */
export function replayTable(title: string, r: ReplayResult): string {
  const rows = r.blocks
    .map(
      (b, i) =>
        `<tr><td>${BigInt(b.number)}</td><td>${b.txs}</td><td>${b.gasUsed}</td><td>${b.newPayloadMs.toFixed(1)}</td><td>${b.fcuMs.toFixed(1)}</td><td>${r.plainEthereumjsMs[i]!.toFixed(1)}</td></tr>`,
    )
    .join('\n')
  return `<h2>${title}</h2>
<p>${describeReplay(r)}.</p>
<table><tr><th>block</th><th>txs</th><th>gas</th><th>newPayload ms</th><th>fcU ms</th><th>plain runBlock ms</th></tr>
${rows}</table>`
}
