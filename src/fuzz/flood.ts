import fc from 'fast-check'
import { devAccounts } from '../chain/dev.js'
import { uint256 } from '../testing/words.js'
import { ECHO, LOOP } from './chain.js'
import { post } from './post.js'

// Floods of heavy calls (issue 21, item 3): one client (127.0.0.1) sends batches of eth_calls that loop until their
// gas runs out, from several connections at once, as fast as they are answered, so the EVM lane stays full. While it
// does, cheap reads the serving thread answers from the store (eth_blockNumber, eth_getBalance, …), from the flooding
// client and from another (127.0.0.3), must all be answered with results — never HTTP 503, never -32005 — and a third
// client's eth_call (127.0.0.2) must be admitted: refused -32005 at most while the lane has no free place, then run.
// The flood's own calls are each run (out of gas, or stopped at the node's time limit) or refused -32005; nothing
// else. Its batches hold 8 to 32 calls: `streams` connections of them fill a lane of fewer than 8 × streams places.

const FLOODER = '127.0.0.1'
const CALLER = '127.0.0.2'
const READER = '127.0.0.3'

interface FloodBatch {
  size: number
  gas: number
}

type OtherOp = { kind: 'read'; from: string; method: string; params: unknown[] } | { kind: 'call'; bytes: number }

export interface FloodPlan {
  batches: FloodBatch[]
  ops: OtherOp[]
}

/** The flood's batches (cycled) and the other clients' requests, in order, for a seed. */
export function floodPlan(seed: number, ops: number, maxGas: number): FloodPlan {
  const address = fc.constantFrom(...devAccounts().map((a) => a.address), '0x000000000000000000000000000000000000dead')
  const read = fc.record({
    kind: fc.constant('read' as const),
    from: fc.constantFrom(FLOODER, READER),
    call: fc.oneof(
      fc.constant({ method: 'eth_blockNumber', params: [] as unknown[] }),
      fc.constant({ method: 'eth_chainId', params: [] as unknown[] }),
      address.map((a) => ({ method: 'eth_getBalance', params: [a, 'latest'] as unknown[] })),
      address.map((a) => ({ method: 'eth_getTransactionCount', params: [a, 'latest'] as unknown[] })),
      address.map((a) => ({ method: 'eth_getCode', params: [a, 'latest'] as unknown[] })),
    ),
  })
  const call = fc.record({ kind: fc.constant('call' as const), bytes: fc.integer({ min: 0, max: 256 }) })
  const plan = fc.record({
    batches: fc.array(fc.record({ size: fc.integer({ min: 8, max: 32 }), gas: fc.integer({ min: 100_000, max: maxGas }) }), {
      minLength: 16,
      maxLength: 16,
    }),
    ops: fc.array(
      fc.oneof(
        { weight: 7, arbitrary: read.map(({ kind, from, call }): OtherOp => ({ kind, from, ...call })) },
        { weight: 1, arbitrary: call as fc.Arbitrary<OtherOp> },
      ),
      { minLength: ops, maxLength: ops },
    ),
  })
  const [p] = fc.sample(plan, { numRuns: 1, seed })
  // At least one eth_call of the other client, whatever the draw.
  return { batches: p!.batches, ops: [...p!.ops, { kind: 'call', bytes: 32 }] }
}

export interface FloodReport {
  /** The flood's calls run (to their gas limit) and refused -32005. */
  floodRan: number
  floodRefused: number
  reads: number
  calls: number
  /** The other client's eth_calls refused -32005 before being admitted, in all. */
  callRefusals: number
  /**
   * The other client's eth_calls admitted but stopped at the time limit: its limit counts its wait, and a worker
   * cannot be taken from the task of the flood's calls it is running (up to 8 of them) — allowed only when
   * `timeoutsAllowed`, the flood's calls being long enough for that.
   */
  callTimeouts: number
  failures: string[]
}

interface Item {
  id?: unknown
  result?: unknown
  error?: { code?: unknown; message?: unknown }
}

/**
 * Floods `url` and runs the other clients' requests of `floodPlan(seed, …)` while it lasts; `streams` connections
 * flood at once; an eth_call of the other client is tried at most `attempts` times (each after calls of the flood
 * ran, freeing places).
 */
export async function runFlood(opts: {
  url: string
  seed: number
  ops: number
  maxGas: number
  streams: number
  attempts: number
  timeoutsAllowed: boolean
}): Promise<FloodReport> {
  const plan = floodPlan(opts.seed, opts.ops, opts.maxGas)
  const report: FloodReport = { floodRan: 0, floodRefused: 0, reads: 0, calls: 0, callRefusals: 0, callTimeouts: 0, failures: [] }
  const fail = (why: string) => {
    if (report.failures.length < 20) report.failures.push(why)
  }
  let stopped = false
  let waiters: (() => void)[] = []
  const wake = () => {
    const w = waiters
    waiters = []
    for (const f of w) f()
  }
  let floodsLive = opts.streams
  /** Resolves once calls of the flood have run, freeing places (or at once when the flood has ended). */
  const nextFloodReply = () => new Promise<void>((resolve) => (floodsLive === 0 || stopped ? resolve() : waiters.push(resolve)))
  let filled: () => void = () => {}
  const laneFull = new Promise<void>((resolve) => {
    filled = resolve
  })

  let turn = 0
  const flood = async () => {
    // Bounded even if the other clients' side never ends: at most this many batches a connection.
    for (let i = 0; i < 100_000 && !stopped; i++) {
      const b = plan.batches[turn++ % plan.batches.length]!
      const body = JSON.stringify(
        Array.from({ length: b.size }, (_, id) => ({
          jsonrpc: '2.0',
          id,
          method: 'eth_call',
          params: [{ to: LOOP, gas: `0x${b.gas.toString(16)}` }, 'latest'],
        })),
      )
      let ran = 0
      try {
        const r = await post(opts.url, body, FLOODER)
        if (r.status !== 200) fail(`flood batch answered HTTP ${r.status}`)
        else {
          for (const item of JSON.parse(r.text) as Item[]) {
            if (item.error?.code === -32005) {
              report.floodRefused++
              filled()
            } else if (item.error?.code === -32000 && /out of gas|execution aborted \(timeout/.test(String(item.error.message))) {
              report.floodRan++
              ran++
            } else {
              ran++
              fail(`flood call answered ${JSON.stringify(item).slice(0, 200)}`)
            }
          }
        }
      } catch (e) {
        fail(`flood batch failed: ${(e as Error).message}`)
      }
      // A batch refused whole waits until calls of the flood have run (places freed) before it is sent again: the
      // lane stays full without the flood spinning on refusals (which would starve the test's own event loop).
      if (ran > 0) wake()
      else await nextFloodReply()
    }
    floodsLive--
    // The others waiting for a place freed: at the flood's end none will be, so they stop waiting.
    if (floodsLive === 0 || stopped) wake()
  }
  const floods = Array.from({ length: opts.streams }, flood)

  const others = async () => {
    // The other clients start once the flood has been refused a place: the lane is full from then on.
    await Promise.race([laneFull, Promise.all(floods)])
    if (floodsLive === 0) return fail('the flood ended before it filled the lane')
    for (const op of plan.ops) {
      if (op.kind === 'read') {
        const r = await post(opts.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: op.method, params: op.params }), op.from)
        const item = r.status === 200 ? (JSON.parse(r.text) as Item) : undefined
        if (item === undefined || typeof item.result !== 'string')
          fail(`${op.method} from ${op.from} during the flood: HTTP ${r.status} ${r.text.slice(0, 200)}`)
        else report.reads++
        continue
      }
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ to: ECHO, data: uint256(op.bytes) }, 'latest'] })
      for (let attempt = 1; ; attempt++) {
        const r = await post(opts.url, body, CALLER)
        const item = r.status === 200 ? (JSON.parse(r.text) as Item) : undefined
        if (item?.error?.code === -32005 && attempt < opts.attempts) {
          report.callRefusals++
          await nextFloodReply()
          continue
        }
        if (item?.result === `0x${'00'.repeat(op.bytes)}`) report.calls++
        else if (opts.timeoutsAllowed && item?.error?.code === -32000 && /^execution aborted \(timeout/.test(String(item.error.message)))
          report.callTimeouts++
        else fail(`eth_call from ${CALLER} during the flood, attempt ${attempt}: HTTP ${r.status} ${r.text.slice(0, 200)}`)
        break
      }
    }
  }
  try {
    await others()
  } finally {
    stopped = true
    wake()
    await Promise.all(floods)
  }
  const alive = await post(opts.url, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}').catch(() => undefined)
  if (alive?.status !== 200 || !alive.text.includes('"result"')) fail('node not serving after the flood')
  return report
}
