import fc from 'fast-check'
import { uint256 } from '../testing/words.js'
import { CODES, ECHO, LOG_BYTES, LOGGER } from './chain.js'
import { post } from './post.js'

// Huge replies (issue 21, item 2): random batches of calls whose replies are large — eth_getCode of big code, an
// eth_call returning as many bytes as asked, eth_getLogs over blocks of 4 KiB logs — against a node with small reply
// bounds. Every reply must be JSON; each call answered with its true result or -32003 "response too large"; a
// result never larger than the per-call bound; a batch's kept results no more than its bound plus the one answer
// that crossed it; -32003 only where a bound was passed; and the node serving afterwards.

export interface ReplyBounds {
  /** --rpc.max-response-size */
  maxReply: number
  /** --rpc.batch-response-max-size */
  maxBatchReply: number
  /** The most calls generated in one batch (within the node's --rpc.batchlimit and its lane). */
  maxCalls: number
}

interface Call {
  method: string
  params: unknown[]
  /** The result the call must have when it is answered, as JSON text. */
  expected: string
}

const TOO_LARGE = '{"code":-32003,"message":"response too large"}'
const EOA = '0x000000000000000000000000000000000000dead'

function calls(logBlocks: number[], head: number): fc.Arbitrary<Call> {
  const hex = (n: number) => `0x${n.toString(16)}`
  const getCode = fc.constantFrom(...Object.keys(CODES), EOA).map((a) => ({
    method: 'eth_getCode',
    params: [a, 'latest'],
    expected: JSON.stringify(CODES[a] ?? '0x'),
  }))
  const call = fc.integer({ min: 0, max: 40_000 }).map((n) => ({
    method: 'eth_call',
    params: [{ to: ECHO, data: uint256(n), gas: '0x1000000' }, 'latest'],
    expected: JSON.stringify(`0x${'00'.repeat(n)}`),
  }))
  const logs = fc.tuple(fc.integer({ min: 0, max: head }), fc.integer({ min: 0, max: head }), fc.boolean()).map(([a, b, byAddress]) => {
    const [from, to] = a <= b ? [a, b] : [b, a]
    const n = logBlocks.filter((x) => x >= from && x <= to).length
    return {
      method: 'eth_getLogs',
      params: [{ fromBlock: hex(from), toBlock: hex(to), ...(byAddress ? { address: LOGGER } : {}) }],
      // Only the count and sizes are checked (the logs' other fields depend on the blocks): see `matches`.
      expected: `logs:${n}`,
    }
  })
  const cheap = fc.constantFrom<Call>(
    // A node with --dev.period goes on making (empty) blocks: the head may have moved on.
    { method: 'eth_blockNumber', params: [], expected: `head:${head}` },
    { method: 'eth_getBalance', params: [EOA, 'latest'], expected: '"0x0"' },
  )
  return fc.oneof({ weight: 3, arbitrary: getCode }, { weight: 3, arbitrary: call }, { weight: 3, arbitrary: logs }, { weight: 1, arbitrary: cheap })
}

/** A case: one call, or a batch of them. */
export interface ReplyCase {
  batch: boolean
  calls: Call[]
}

export function replyCases(bounds: ReplyBounds, logBlocks: number[], head: number): fc.Arbitrary<ReplyCase> {
  const c = calls(logBlocks, head)
  return fc.oneof(
    c.map((x) => ({ batch: false, calls: [x] })),
    fc.array(c, { minLength: 1, maxLength: bounds.maxCalls }).map((xs) => ({ batch: true, calls: xs })),
  )
}

function matches(call: Call, result: unknown): boolean {
  if (call.expected.startsWith('head:'))
    return typeof result === 'string' && /^0x[0-9a-f]+$/.test(result) && Number(result) >= Number(call.expected.slice(5))
  if (!call.expected.startsWith('logs:')) return JSON.stringify(result) === call.expected
  const want = Number(call.expected.slice(5))
  return (
    Array.isArray(result) &&
    result.length === want &&
    result.every(
      (l: { data?: unknown; address?: unknown }) => l.address === LOGGER && typeof l.data === 'string' && l.data.length === 2 + 2 * LOG_BYTES,
    )
  )
}

/** Why the reply to `c` breaks the rules, or undefined. */
export function judgeReplies(c: ReplyCase, status: number, text: string, bounds: ReplyBounds): string | undefined {
  if (status !== 200) return `HTTP ${status}`
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return `reply of ${text.length} bytes is not JSON`
  }
  if (Array.isArray(parsed) !== c.batch) return 'batch answered as a single reply, or the reverse'
  const items = (Array.isArray(parsed) ? parsed : [parsed]) as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown }[]
  if (items.length !== c.calls.length) return `${c.calls.length} calls, ${items.length} answers`
  const kept: number[] = []
  let total = 0
  let refused = false
  for (const item of items) {
    const call = typeof item.id === 'number' ? c.calls[item.id] : undefined
    if (call === undefined || item.jsonrpc !== '2.0') return `malformed answer ${JSON.stringify(item).slice(0, 200)}`
    const bytes = JSON.stringify(item).length
    total += bytes
    if ('error' in item) {
      if (JSON.stringify(item.error) !== TOO_LARGE) return `${call.method} answered ${JSON.stringify(item.error).slice(0, 200)}`
      refused = true
      continue
    }
    if (!matches(call, item.result)) return `${call.method} ${JSON.stringify(call.params).slice(0, 120)}: wrong result`
    const resultBytes = JSON.stringify(item.result).length
    if (resultBytes > bounds.maxReply) return `${call.method}: a result of ${resultBytes} bytes passed the per-call bound ${bounds.maxReply}`
    kept.push(bytes)
  }
  if (!c.batch) {
    // One call: -32003 exactly when its result would pass the bound.
    const call = c.calls[0]!
    const size = resultLength(call)
    if (size !== undefined && refused !== size > bounds.maxReply)
      return `${call.method}: ${size}-byte result, answered ${refused ? '-32003' : 'in full'}`
    return undefined
  }
  // Every answer written before the bound was passed is kept, and the one that passed it: the others, at most the bound.
  const sum = kept.reduce((a, b) => a + b, 0)
  const largest = kept.reduce((a, b) => Math.max(a, b), 0)
  if (sum - largest > bounds.maxBatchReply)
    return `batch kept ${sum} bytes of results, past ${bounds.maxBatchReply} plus its largest answer ${largest}`
  // A result within the per-call bound answered -32003 only once the batch's reply passed its bound.
  const fitting = items.some((item) => {
    const size = resultLength(c.calls[item.id as number]!)
    return 'error' in item && size !== undefined && size <= bounds.maxReply
  })
  if (fitting && total <= bounds.maxBatchReply) return `-32003 for a call that fits, in a batch of ${total} bytes within its bound`
  return undefined
}

/** A call's result size in bytes, when known from the call alone (not for log queries). */
function resultLength(call: Call): number | undefined {
  return call.expected.startsWith('logs:') || call.expected.startsWith('head:') ? undefined : call.expected.length
}

export interface RepliesReport {
  cases: number
  /** Answers by outcome: results kept, -32003. */
  answered: number
  tooLarge: number
  failures: { body: string; why: string }[]
}

/** Sends `runs` generated cases (deterministic for a seed), 4 at a time, and judges each reply. */
export async function runReplies(opts: {
  url: string
  bounds: ReplyBounds
  logBlocks: number[]
  head: number
  runs: number
  seed: number
}): Promise<RepliesReport> {
  const cases = fc.sample(replyCases(opts.bounds, opts.logBlocks, opts.head), { numRuns: opts.runs, seed: opts.seed })
  const report: RepliesReport = { cases: 0, answered: 0, tooLarge: 0, failures: [] }
  let next = 0
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!
      const items = c.calls.map((x, id) => ({ jsonrpc: '2.0', id, method: x.method, params: x.params }))
      const body = JSON.stringify(c.batch ? items : items[0])
      let why: string | undefined
      try {
        const r = await post(opts.url, body)
        why = judgeReplies(c, r.status, r.text, opts.bounds)
        const tooLarge = r.text.split('"code":-32003').length - 1
        report.tooLarge += tooLarge
        report.answered += c.calls.length - tooLarge
      } catch (e) {
        why = `request failed: ${(e as Error).message}`
      }
      report.cases++
      if (why !== undefined && report.failures.length < 20) report.failures.push({ body: body.slice(0, 400), why })
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker))
  return report
}
