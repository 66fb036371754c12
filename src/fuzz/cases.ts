import fc from 'fast-check'
import { createFeeMarket1559Tx } from '@ethereumjs/tx'
import { devAccounts } from '../chain/dev.js'
import type { ChainSpec } from '../chain/spec.js'
import { allMethods } from '../rpc/methods/index.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'

// Property-based inputs for both endpoints and the rules every reply must keep: well-formed JSON-RPC, the code a
// client's mistake deserves, never -32603 (an internal error), and a node that still serves afterwards.

export interface FuzzCase {
  /** Which endpoint: the public HTTP port or the authenticated Engine API. */
  port: 'http' | 'auth'
  body: string
  /** What the case exercises, for the report. */
  kind: string
}

const METHODS = [...allMethods().keys()]
const hexDigits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n })

/** Hex of every bad shape, and some good ones. */
const hexish = fc.oneof(
  fc.constantFrom('0x', '0x0', '0x00', '0x01', '0xabc', '0XAB', 'ab', '0x-1', '0xzz', '0x 1', '', '-0x1', '0x1_0'),
  fc.integer({ min: 0, max: 80 }).chain((n) => hexDigits(n).map((h) => `0x${h}`)),
  fc.integer({ min: 0, max: 80 }).chain((n) => hexDigits(n).map((h) => `0x${h.toUpperCase()}`)),
  fc.bigInt({ min: 0n, max: 2n ** 300n }).map((v) => `0x${v.toString(16)}`),
  fc.constantFrom(64, 128, 512, 1024).chain((n) => hexDigits(n).map((h) => `0x${h}`)),
)

const numbers = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 2 ** 53, 2 ** 64, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.bigInt({ min: -(2n ** 256n), max: 2n ** 256n }).map((v) => ({ raw: v.toString() })),
)

const tags = fc.constantFrom('latest', 'pending', 'earliest', 'safe', 'finalized', 'newest', 'LATEST')

/** A parameter of any shape: hex, tags, numbers, JSON of any kind, EIP-1898 objects. */
const param: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hexish },
  { weight: 1, arbitrary: tags },
  { weight: 2, arbitrary: numbers },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.record({ blockHash: hexish, requireCanonical: fc.oneof(fc.boolean(), fc.string()) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ blockNumber: fc.oneof(hexish, tags) }) },
  { weight: 1, arbitrary: fc.boolean() },
)

const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.constant(null),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 128n }).map((v) => ({ raw: v.toString() })),
  fc.constantFrom({ raw: '1.50' }, { raw: '-0' }, { raw: '1e3' }, [1], { a: 1 }, true),
)

/** JSON text where `{ raw }` stands for a number written as given (beyond what JSON.stringify can write). */
function text(value: unknown): string {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'raw' in value && Object.keys(value).length === 1) {
    return String((value as { raw: unknown }).raw)
  }
  if (Array.isArray(value)) return `[${value.map(text).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${text(v)}`)
      .join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...METHODS) },
  { weight: 1, arbitrary: fc.constantFrom('eth_nope', '', 'engine_newPayloadV9', 'rpc_modules', '__proto__', 'constructor') },
)

const request = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 9, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: fc.constantFrom('1.0', 2, null) }),
    id,
    method: fc.oneof({ weight: 19, arbitrary: method }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }),
    params: fc.oneof({ weight: 9, arbitrary: fc.array(param, { maxLength: 5 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) }),
  },
  { requiredKeys: ['method'] },
)

/** Raw transactions: random bytes, typed envelopes of random RLP, and a valid transaction with one byte changed. */
function rawTransactions(spec: ChainSpec): fc.Arbitrary<string> {
  const key = hexToBytes(devAccounts()[3]!.privateKey)
  const valid = createFeeMarket1559Tx(
    {
      chainId: spec.chainId,
      nonce: 0n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
      gasLimit: 21_000n,
      to: devAccounts()[4]!.address as `0x${string}`,
    },
    { common: spec.commonAt(1n, 2n ** 40n) },
  )
    .sign(key)
    .serialize()
  return fc.oneof(
    fc.uint8Array({ maxLength: 200 }).map((b) => bytesToHex(b)),
    fc
      .tuple(fc.constantFrom(0, 1, 2, 3, 4, 5, 0x7f, 0xc0, 0xf8), fc.uint8Array({ maxLength: 150 }))
      .map(([t, b]) => bytesToHex(Uint8Array.from([t, ...b]))),
    fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 1, max: 255 })).map(([at, x]) => {
      const copy = valid.slice()
      copy[at] = copy[at]! ^ x
      return bytesToHex(copy)
    }),
    fc.nat({ max: valid.length - 1 }).map((n) => bytesToHex(valid.subarray(0, n))),
  )
}

/** An ExecutionPayloadV3 with one field replaced by a value of the wrong size or shape. */
const payloadField = fc.constantFrom(
  'parentHash',
  'feeRecipient',
  'stateRoot',
  'receiptsRoot',
  'logsBloom',
  'prevRandao',
  'blockNumber',
  'gasLimit',
  'gasUsed',
  'timestamp',
  'extraData',
  'baseFeePerGas',
  'blockHash',
  'transactions',
  'withdrawals',
  'blobGasUsed',
  'excessBlobGas',
)

function payloadTemplate(): Record<string, unknown> {
  const h = `0x${'11'.repeat(32)}`
  return {
    parentHash: h,
    feeRecipient: `0x${'22'.repeat(20)}`,
    stateRoot: h,
    receiptsRoot: h,
    logsBloom: `0x${'00'.repeat(256)}`,
    prevRandao: h,
    blockNumber: '0x1',
    gasLimit: '0x1c9c380',
    gasUsed: '0x0',
    timestamp: '0x10',
    extraData: '0x',
    baseFeePerGas: '0x7',
    blockHash: h,
    transactions: [],
    withdrawals: [],
    blobGasUsed: '0x0',
    excessBlobGas: '0x0',
  }
}

const ZERO32 = `0x${'00'.repeat(32)}`

/** Every kind of case, weighted; `maxBatch` is the node's batch limit. */
export function fuzzCases(spec: ChainSpec, maxBatch: number): fc.Arbitrary<FuzzCase> {
  const single = request.map((r) => ({ port: 'http' as const, body: text(r), kind: 'request' }))
  const batch = fc
    .oneof(fc.integer({ min: 0, max: 6 }), fc.integer({ min: maxBatch - 2, max: maxBatch + 2 }))
    .chain((n) =>
      fc.array(fc.oneof({ weight: 9, arbitrary: request }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) }), { minLength: n, maxLength: n }),
    )
    .map((items) => ({ port: 'http' as const, body: text(items), kind: `batch` }))
  const truncated = fc.tuple(request, fc.double({ min: 0, max: 0.999, noNaN: true })).map(([r, f]) => {
    const t = text(r)
    return { port: 'http' as const, body: t.slice(0, Math.floor(t.length * f)), kind: 'truncated' }
  })
  const garbage = fc
    .oneof(fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 60 }))
    .map((body) => ({ port: 'http' as const, body, kind: 'garbage' }))
  const deep = fc.tuple(fc.integer({ min: 10, max: 5000 }), fc.constantFrom('[', '{"a":')).map(([d, open]) => {
    const close = open === '[' ? ']' : '}'
    const inner = `${open.repeat(d)}1${close.repeat(d)}`
    return { port: 'http' as const, body: `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":[${inner},"latest"]}`, kind: 'deep' }
  })
  const sendRaw = fc.tuple(rawTransactions(spec), id).map(([raw, i]) => ({
    port: 'http' as const,
    body: text({ jsonrpc: '2.0', id: i, method: 'eth_sendRawTransaction', params: [raw] }),
    kind: 'rawtx',
  }))
  const newPayload = fc
    .tuple(payloadField, fc.oneof(hexish, numbers, fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined)))
    .map(([field, value]) => {
      const p = payloadTemplate()
      if (value === undefined) delete p[field]
      else p[field] = value
      return {
        port: 'auth' as const,
        body: text({ jsonrpc: '2.0', id: 7, method: 'engine_newPayloadV4', params: [p, [], ZERO32, []] }),
        kind: `payload.${field}`,
      }
    })
  const engineCall = request.map((r) => ({ port: 'auth' as const, body: text(r), kind: 'engine request' }))
  // Log filters of every shape: ranges (reversed, past the head, tags), block hashes, addresses, topic positions.
  const bound = fc.oneof(hexish, tags, fc.constantFrom(null, '0x0', '0x1', '0x3'))
  const filter = fc.record(
    {
      fromBlock: bound,
      toBlock: bound,
      blockHash: fc.oneof(hexish, fc.constant(ZERO32)),
      address: fc.oneof(hexish, fc.array(hexish, { maxLength: 3 }), fc.constant(null), fc.constant(`0x${'00'.repeat(20)}`)),
      topics: fc.oneof(fc.constant(null), fc.array(fc.oneof(fc.constant(null), hexish, fc.array(hexish, { maxLength: 3 })), { maxLength: 6 })),
    },
    { requiredKeys: [] },
  )
  const logs = fc
    .tuple(fc.constantFrom('eth_getLogs', 'eth_newFilter'), filter)
    .map(([m, f]) => ({ port: 'http' as const, body: text({ jsonrpc: '2.0', id: 3, method: m, params: [f] }), kind: m }))
  // Simulations: block numbers and times in and out of order, gaps, calls with odd fields, validation on and off.
  const simCall = fc.record(
    {
      from: fc.oneof(hexish, fc.constant(`0x${'c0'.repeat(20)}`)),
      to: fc.oneof(hexish, fc.constant(null)),
      gas: hexish,
      value: hexish,
      nonce: hexish,
      input: hexish,
    },
    { requiredKeys: [] },
  )
  const simulate = fc
    .record({
      blockStateCalls: fc.array(
        fc.record(
          {
            blockOverrides: fc.record({ number: hexish, time: hexish, gasLimit: hexish, baseFeePerGas: hexish }, { requiredKeys: [] }),
            calls: fc.array(simCall, { maxLength: 3 }),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 4 },
      ),
      validation: fc.boolean(),
      traceTransfers: fc.boolean(),
      returnFullTransactions: fc.boolean(),
    })
    .map((payload) => ({
      port: 'http' as const,
      body: text({ jsonrpc: '2.0', id: 4, method: 'eth_simulateV1', params: [payload, 'latest'] }),
      kind: 'eth_simulateV1',
    }))
  return fc.oneof(
    { weight: 30, arbitrary: single },
    { weight: 8, arbitrary: batch },
    { weight: 8, arbitrary: truncated },
    { weight: 6, arbitrary: garbage },
    { weight: 2, arbitrary: deep },
    { weight: 12, arbitrary: sendRaw },
    { weight: 10, arbitrary: newPayload },
    { weight: 10, arbitrary: engineCall },
    { weight: 6, arbitrary: logs },
    { weight: 4, arbitrary: simulate },
  )
}

interface ReplyObject {
  jsonrpc?: unknown
  id?: unknown
  result?: unknown
  error?: { code?: unknown; message?: unknown }
}

/**
 * Why a reply breaks the rules, or undefined when it keeps them: HTTP 200 with JSON-RPC (or nothing, for
 * notifications only), every member well-formed, -32700 for a body that is not JSON, and no -32603 anywhere.
 */
export function judgeReply(c: FuzzCase, status: number, reply: string, maxBatch: number): string | undefined {
  if (status !== 200) return `HTTP ${status}`
  let bodyValue: unknown
  let bodyIsJson = true
  try {
    bodyValue = JSON.parse(c.body)
  } catch {
    bodyIsJson = false
  }
  if (reply === '') {
    const notifications = (v: unknown) =>
      typeof v === 'object' &&
      v !== null &&
      !Array.isArray(v) &&
      !('id' in v) &&
      (v as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
      typeof (v as { method?: unknown }).method === 'string'
    const ok =
      bodyIsJson &&
      (Array.isArray(bodyValue) ? bodyValue.length > 0 && bodyValue.length <= maxBatch && bodyValue.every(notifications) : notifications(bodyValue))
    return ok ? undefined : 'empty reply to something other than notifications'
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(reply)
  } catch {
    return `reply is not JSON: ${reply.slice(0, 120)}`
  }
  const items = Array.isArray(parsed) ? (parsed as ReplyObject[]) : [parsed as ReplyObject]
  for (const r of items) {
    if (r === null || typeof r !== 'object' || r.jsonrpc !== '2.0' || !('id' in r)) return `malformed reply ${JSON.stringify(r).slice(0, 120)}`
    if ('result' in r === 'error' in r) return 'reply has both or neither of result and error'
    if (r.error !== undefined) {
      if (typeof r.error.code !== 'number' || typeof r.error.message !== 'string') return 'malformed error object'
      if (r.error.code === -32603) return `internal error: ${r.error.message as string}`
    }
  }
  if (!bodyIsJson) {
    const code = (parsed as ReplyObject).error?.code
    return code === -32700 ? undefined : `not JSON, answered ${String(code)}`
  }
  if (Array.isArray(bodyValue) && (bodyValue.length === 0 || bodyValue.length > maxBatch)) {
    return !Array.isArray(parsed) && (parsed as ReplyObject).error?.code === -32600 ? undefined : 'empty or oversized batch not refused with -32600'
  }
  if (Array.isArray(bodyValue) !== Array.isArray(parsed)) return 'batch answered as a single reply, or the reverse'
  return undefined
}
