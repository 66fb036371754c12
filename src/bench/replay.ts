import type { GethGenesisFile } from '../chain/genesis.js'
import { spawnNode } from '../testing/spawnNode.js'
import { type PayloadCall, rpcClient } from './chainGen.js'
import { runPlainEthereumjs } from '../testing/plainEthereumjs.js'

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

export interface ReplayResult {
  blocks: BlockTiming[]
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
}): Promise<ReplayResult> {
  opts.log(`replaying ${opts.payloads.length} blocks through engine_newPayloadV4 on a fresh node…`)
  const node = await spawnNode(opts.nodeArgs, opts.startTimeoutMs ?? 120_000, opts.cli)
  const blocks: BlockTiming[] = []
  try {
    const engine = rpcClient(node.authUrl!, opts.jwtSecret)
    await engine('eth_chainId', []) // a first request, so that connection set-up is not timed
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
  return { blocks, plainEthereumjsMs: plainMs, sponge, plain, speedup: sponge.txPerSec / plain.txPerSec }
}

export function describeReplay(r: ReplayResult): string {
  return `newPayloadV4 ${r.sponge.txPerSec.toFixed(0)} tx/s, ${r.sponge.mgasPerSec.toFixed(1)} Mgas/s; plain EthereumJS runBlock ${r.plain.txPerSec.toFixed(0)} tx/s, ${r.plain.mgasPerSec.toFixed(1)} Mgas/s; ratio ${r.speedup.toFixed(2)}×`
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
