import type { ChainSpec } from '../chain/spec.js'
import { runFlood } from './flood.js'
import { makeLogBlocks } from './chain.js'
import { rpc } from './post.js'
import { type ReplyBounds, runReplies } from './replies.js'

// The heavy cases of issue 21 against one node started on `fuzzGenesis()` with small reply bounds and a small
// lane: shared by `npm run fuzz` (a spawned node) and `npm test` (a node in the test's process).

export const HEAVY_BOUNDS: ReplyBounds = { maxReply: 20_000, maxBatchReply: 50_000, maxCalls: 12 }
/** The lane's places (--rpc.maxqueue): room for four batches of the reply case, filled by the flood at once. */
export const HEAVY_QUEUE = 64
/** Blocks of 4 KiB logs: eth_getLogs over all of them answers ~100 KB, twice the batch bound. */
const LOG_BLOCKS = 12

export interface HeavyRun {
  /** One line per case: what ran and, for each failure, why. */
  lines: string[]
  failed: number
}

export async function runHeavy(opts: {
  url: string
  spec: ChainSpec
  seed: number
  /** Cases of huge replies; 0 skips them. */
  replies: number
  /** The other clients' requests during the flood; 0 skips it. */
  floodOps: number
  /** The most gas a flood call burns (the longer the run, the heavier). */
  floodGas: number
}): Promise<HeavyRun> {
  const out: HeavyRun = { lines: [], failed: 0 }
  if (opts.replies > 0) {
    const logBlocks = await makeLogBlocks(opts.url, opts.spec, LOG_BLOCKS)
    const head = Number(BigInt(await rpc<string>(opts.url, 'eth_blockNumber')))
    const r = await runReplies({ url: opts.url, bounds: HEAVY_BOUNDS, logBlocks, head, runs: opts.replies, seed: opts.seed })
    out.lines.push(`replies, seed ${opts.seed}: ${r.cases} cases, ${r.answered} calls answered, ${r.tooLarge} answered -32003`)
    for (const f of r.failures) out.lines.push(`FAIL replies: ${f.why}\n  ${f.body}`)
    out.failed += r.failures.length
  }
  if (opts.floodOps > 0) {
    const r = await runFlood({
      url: opts.url,
      seed: opts.seed,
      ops: opts.floodOps,
      maxGas: opts.floodGas,
      streams: Math.ceil(HEAVY_QUEUE / 8) + 1,
      attempts: 10_000,
      // A worker runs up to 8 of one client's calls per task: past ~1/8 of the 5 s limit each, the other client's call
      // may wait out its own limit behind them.
      timeoutsAllowed: opts.floodGas > 1_000_000,
    })
    out.lines.push(
      `flood, seed ${opts.seed}: ${r.floodRan} flood calls run, ${r.floodRefused} refused; meanwhile ${r.reads} reads answered, ` +
        `${r.calls} eth_calls of another client answered (${r.callTimeouts} stopped at the time limit) after ${r.callRefusals} refusals`,
    )
    for (const f of r.failures) out.lines.push(`FAIL flood: ${f}`)
    out.failed += r.failures.length
  }
  return out
}
