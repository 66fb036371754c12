import type { IValidation } from 'typia'
import type { NodeContext } from './context.js'
import {
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  LimitExceededError,
  MethodNotFoundError,
  ParseError,
  ResponseTooLargeError,
  type RpcError,
} from './errors.js'
import type { MethodTable, Namespace } from './methodTable.js'
import { RawJson, type Reply } from './reply.js'
import { toRpcError } from './errorMap.js'
import { rawIds } from './rawIds.js'
import { ReplyWriter } from './replyWriter.js'
import { syncRun } from '../util/syncRun.js'
import type { Turns } from '../util/turns.js'

export interface EnvelopeOptions {
  maxBatch: number
  /** The largest reply to one call, bytes; a larger one is answered -32003 instead (reth's --rpc.max-response-size). */
  maxReplyBytes?: number
  /**
   * A batch's reply, bytes: once its answers pass it, the calls not yet answered are answered -32003 without running
   * (geth's --rpc.batch-response-max-size).
   */
  maxBatchReplyBytes?: number
  /** Namespaces served on this endpoint; other methods answer -32601 as if they did not exist. */
  namespaces: ReadonlySet<Namespace>
  onInternalError?: (method: string, e: unknown) => void
  /** Every answered call (metrics): the method ('unknown' for names not in the table), 0 or the error code, time. */
  observe?: (method: string, code: number, seconds: number) => void
  /**
   * The serving thread's turns, on a public endpoint: a batch answered here goes on in turns once it has run
   * BATCH_SLICE_MS, and one that arrives while public work waits for a turn starts in one — so that an Engine API
   * call, served without turns, waits for one slice at most, not for every batch the sockets had.
   */
  turns?: Turns
  /**
   * With `turns`, whether a batch that arrives while other public work waits for a turn waits for one too (the
   * default): where the Engine API is answered on the same thread, so that a call of it read in the same pass is not
   * answered behind every batch the sockets had. A serving thread without the Engine API answers such a batch at once
   * (false): queued, every batch under a flood waited — one answered a pass, the parsed bodies of all the others
   * kept alive meanwhile — which cost a quarter of a batch's CPU at 256 connections (docs/performance.md).
   */
  queueArrivingBatches?: boolean
}

/** An id echoed from the request's own text (a number JSON.parse would alter). */
class RawId {
  constructor(readonly text: string) {}
}

type Id = string | number | null | RawId

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

const idJson = (id: Id): string => (id instanceof RawId ? id.text : JSON.stringify(id))

/** A numeric id that JSON.stringify would not give back as sent: beyond double precision, or not an integer. */
const needsRawText = (id: unknown): boolean => typeof id === 'number' && !Number.isSafeInteger(id)

const PREFIX = '{"jsonrpc":"2.0","id":'

function errorJson(e: RpcError): string {
  const error: { code: number; message: string; data?: unknown } = { code: e.code, message: e.message }
  if (e.data !== undefined) error.data = e.data
  return JSON.stringify(error)
}

function writeError(w: ReplyWriter, id: Id, e: RpcError): void {
  w.str(`${PREFIX}${idJson(id)},"error":${errorJson(e)}}`)
}

/** A reply with no request id to answer by (a body refused before it was read, a failure of the transport's). */
export function errorReplyWithoutId(e: RpcError): string {
  return `${PREFIX}null,"error":${errorJson(e)}}`
}

const PREFIX_BYTES = Buffer.from(PREFIX)
const RESULT_KEY = Buffer.from(',"result":')
const CLOSE_BRACE = Buffer.from('}')

/** The reply's head up to its result: ids are mostly small integers, written as digits without a string. */
function writeHead(w: ReplyWriter, id: Id): void {
  w.bytes(PREFIX_BYTES)
  if (typeof id === 'number' && id >= 0 && Number.isSafeInteger(id)) w.uint(id)
  else w.str(idJson(id))
  w.bytes(RESULT_KEY)
}

/**
 * Raw chunks may be transient store views: they are copied here, before any other read. A result longer than
 * `maxBytes` is not written (false): its size is known before it is copied into the reply. A string that needs no
 * escaping (a quantity, a hash) is copied between quotes: JSON.stringify and the concatenations around it were
 * most of a state read's reply.
 */
function writeResult(w: ReplyWriter, id: Id, result: Reply, maxBytes: number): boolean {
  if (result instanceof RawJson) {
    if (rawLength(result) > maxBytes) return false
    writeHead(w, id)
    for (const c of result.chunks) {
      if (typeof c === 'string') w.str(c)
      else w.bytes(c)
    }
    w.bytes(CLOSE_BRACE)
    return true
  }
  if (typeof result === 'string' && result.length + 2 <= maxBytes) {
    const at = w.length
    writeHead(w, id)
    if (w.plainString(result)) {
      w.bytes(CLOSE_BRACE)
      return true
    }
    w.truncate(at)
  }
  const text = JSON.stringify(result)
  // Bytes, not UTF-16 units: counted only when the units alone cannot tell.
  if (text.length > maxBytes || (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes)) return false
  writeHead(w, id)
  w.str(text)
  w.bytes(CLOSE_BRACE)
  return true
}

/** Past this size a promised pre-encoded answer is joined into a buffer of its own, not the shared writer. */
const BIG_REPLY_BYTES = 256 * 1024

/**
 * A large pre-encoded answer (a log query's parts) as its reply's bytes, copied once: through the shared writer it
 * was copied twice, and the writer grew to its size. Undefined when it is small, or past `maxBytes` (the writer's
 * path answers that).
 */
function bigRawReply(id: Id, r: Reply, maxBytes: number): Buffer | undefined {
  if (!(r instanceof RawJson)) return undefined
  const length = rawLength(r)
  if (length < BIG_REPLY_BYTES || length > maxBytes) return undefined
  const head = `${PREFIX}${idJson(id)},"result":`
  return Buffer.concat([Buffer.from(head), ...r.chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)), CLOSE_BRACE])
}

/** The bytes of pre-encoded JSON (its strings are ASCII: hex and JSON punctuation). */
function rawLength(r: RawJson): number {
  let n = 0
  for (const c of r.chunks) n += typeof c === 'string' ? c.length : c.byteLength
  return n
}

/** "invalid argument 1: expected …, got …" from typia's first error. */
export function describeValidation(v: IValidation.IFailure): string {
  const err = v.errors[0]
  if (err === undefined) return 'invalid params'
  const m = /^\$input\[(\d+)\](.*)$/.exec(err.path)
  const where = m === null ? 'params' : `argument ${m[1]}${m[2] ?? ''}`
  let got: string
  try {
    got = err.value === undefined ? 'nothing' : JSON.stringify(err.value).slice(0, 80)
  } catch {
    got = typeof err.value
  }
  return `invalid ${where}: expected ${err.expected}, got ${got}`
}

function isValidId(id: unknown): id is string | number | null {
  return id === null || typeof id === 'string' || typeof id === 'number'
}

/** Written into the writer (true), nothing to send for a notification (false), or an answer still to come. */
type Outcome = boolean | Promise<Buffer | undefined>

/**
 * What one body's calls share: its text (for ids that must be echoed as written), and the requesting client's
 * context (its lane, its key) for the body's methods that run as the client's, made once per body and only if one
 * does; and the body's admission to the worker lane, asked once for all the methods of the body that may use it
 * (`ctx.pool.admits`), when the first of them needs a place: a pool method takes one before it is validated (none
 * left: -32005 at once, so that refusing costs next to nothing), a thread-first method (eth_call) only if it leaves
 * its call to the lane, through its context's lane. Methods the serving thread answers never count and are never
 * refused. One object with methods, not closures: a body of store reads makes nothing else.
 */
class BodyScope {
  private ids: (string | undefined)[] | undefined
  private made: NodeContext | undefined
  private scoped: NodeContext | undefined
  private lazy: NodeContext | undefined
  /** Places in the lane left to this body; -1 until the lane is first asked. */
  private room = -1
  /** The body's requests that may run in the lane; -1 until counted. */
  private count = -1
  /**
   * When the last call answered at once was timed to its end (performance.now()), else undefined: a batch starts the
   * next call's time there instead of reading the clock again (a read is ~90 ns on this machine's VM).
   */
  callEnded: number | undefined

  constructor(
    private readonly text: string,
    private readonly parsed: unknown,
    private readonly table: MethodTable,
    private readonly clientCtx: () => NodeContext,
    private readonly shared: NodeContext,
  ) {}

  /** The raw text of request `index`'s id (-1: the body is one request), when JSON.parse would alter it. */
  rawId(index: number): string | undefined {
    if (index < 0) return rawIds(this.text, false)[0]
    this.ids ??= rawIds(this.text, true)
    return this.ids[index]
  }

  /** How many of the body's requests name a method that may run in the lane: counted when first needed. */
  private calls(): number {
    if (this.count >= 0) return this.count
    const p = this.parsed
    let n = 0
    if (!Array.isArray(p)) n = isPoolCall(p, this.table) ? 1 : 0
    else for (const item of p) if (isPoolCall(item, this.table)) n++
    this.count = n
    return n
  }

  private base(): NodeContext {
    this.made ??= this.clientCtx()
    return this.made
  }

  /** Takes one of the body's places in the lane; false when none is left. */
  take(): boolean {
    if (this.room < 0) {
      const calls = this.calls()
      this.room = calls === 0 ? 0 : this.base().pool.admits(calls)
    }
    if (this.room === 0) return false
    this.room--
    return true
  }

  /** The client's context, whose lane admits from the body's places. */
  ctx(): NodeContext {
    if (this.scoped !== undefined) return this.scoped
    const base = this.base()
    if (this.calls() === 0) return base
    const lane = base.pool
    const admits = (n: number) => {
      let k = 0
      while (k < n && this.take()) k++
      return k
    }
    this.scoped = { ...base, pool: { run: (task, o) => lane.run(task, o), admits } }
    return this.scoped
  }

  /**
   * The context of a thread-first method: the endpoint's, whose lane is the client's, found only if the method uses
   * it (knowing the client costs a call into the transport: most calls finish on the serving thread without it).
   */
  laneCtx(): NodeContext {
    this.lazy ??= { ...this.shared, pool: { run: (task, o) => this.ctx().pool.run(task, o), admits: (n) => this.ctx().pool.admits(n) } }
    return this.lazy
  }
}

/** The error a failure is answered with: a known refusal's code, or -32603 for anything else (logged once). */
function rpcErrorOf(e: unknown, name: string, opts: EnvelopeOptions): RpcError {
  const known = toRpcError(e)
  if (known !== undefined) return known
  opts.onInternalError?.(name, e)
  return new InternalError(e instanceof Error ? e.message : 'Internal error')
}

/** Writes a failure's error object (when the request has an id); returns its code. */
function writeFailure(w: ReplyWriter | undefined, id: Id, e: unknown, name: string, opts: EnvelopeOptions): number {
  const err = rpcErrorOf(e, name, opts)
  if (w !== undefined) writeError(w, id, err)
  return err.code
}

/**
 * Writes a handler's result — or -32003 when it is too large, or the internal error it turns into when it cannot be
 * encoded; returns 0 or the code.
 */
function writeSettled(w: ReplyWriter, id: Id, result: Reply, name: string, opts: EnvelopeOptions): number {
  const at = w.length
  try {
    if (writeResult(w, id, result, opts.maxReplyBytes ?? Number.POSITIVE_INFINITY)) return 0
    return writeFailure(w, id, TOO_LARGE, name, opts)
  } catch (e) {
    w.truncate(at)
    return writeFailure(w, id, e, name, opts)
  }
}

/** What a batch's answers have written so far, against its bound. */
interface ReplyBudget {
  spent: number
  max: number
}

/**
 * Tells `opts.observe` of an answered call, when it is set: its time since `started` (performance.now()); returns
 * the time it ended, or undefined when nothing was timed. `label` is the method's name, or 'unknown' for a name
 * not in the table.
 */
function observeCall(opts: EnvelopeOptions, label: string, started: number, code: number): number | undefined {
  const observe = opts.observe
  if (observe === undefined) return undefined
  const now = performance.now()
  observe(label, code, (now - started) / 1000)
  return now
}

/**
 * One request object (request `index` of a batch, -1 for a body of one), answered into `w` when its handler is
 * synchronous (store reads): no promise and no buffer of its own. A notification (no id) runs, but nothing is sent
 * back. The synchronous path makes no closure: on a store read it was a measurable share of the call.
 */
function handleOne(
  raw: unknown,
  w: ReplyWriter,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
  scope: BodyScope,
  index: number,
  budget?: ReplyBudget,
  startedAt?: number,
): Outcome {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    writeError(w, null, new InvalidRequestError('invalid request'))
    return true
  }
  const req = raw as Record<string, unknown>
  const hasId = 'id' in req
  const validId = hasId && isValidId(req.id)
  let id: Id = validId ? (req.id as string | number | null) : null
  if (needsRawText(id)) {
    const text = scope.rawId(index)
    // Only a JSON number is echoed raw: whatever else the scan found, the parsed value is the safer answer.
    if (text !== undefined && JSON_NUMBER.test(text)) id = new RawId(text)
  }
  if (hasId && !validId) return writeEarly(w, id, new InvalidRequestError('invalid request id'))
  if (req.jsonrpc !== '2.0') return writeEarly(w, id, new InvalidRequestError('invalid request: jsonrpc must be "2.0"'))
  const name = req.method
  if (typeof name !== 'string') return writeEarly(w, id, new InvalidRequestError('invalid request: no method'))
  const started = opts.observe === undefined ? 0 : (startedAt ?? performance.now())
  const def = table.get(name)
  const label = def === undefined ? 'unknown' : name
  let result: Reply | Promise<Reply>
  try {
    if (def === undefined || !opts.namespaces.has(def.namespace)) throw new MethodNotFoundError(name)
    if (budget !== undefined && budget.spent > budget.max) throw TOO_LARGE
    let context = ctx
    const runsIn = def.runsIn
    if (runsIn !== 'thread') {
      if (runsIn === 'pool') {
        if (!scope.take()) throw OVERLOADED
        context = scope.ctx()
      } else if (runsIn === 'threadAsClient') {
        context = scope.ctx()
      } else {
        context = scope.laneCtx()
      }
    }
    const p = req.params
    const params = p === undefined || p === null ? NO_PARAMS : p
    if (!Array.isArray(params)) throw new InvalidParamsError('non-array args')
    const kept = def.kept?.(params, context)
    if (kept !== undefined) {
      result = kept
    } else {
      const checked = def.validate(params)
      if (!checked.success) throw new InvalidParamsError(describeValidation(checked))
      result = def.handle(checked.data as never, context)
    }
  } catch (e) {
    scope.callEnded = observeCall(opts, label, started, writeFailure(hasId ? w : undefined, id, e, name, opts))
    return hasId
  }
  if (result instanceof Promise) return promised(result, hasId, id, w, opts, name, label, started, budget)
  if (!hasId) {
    scope.callEnded = observeCall(opts, label, started, 0)
    return false
  }
  scope.callEnded = observeCall(opts, label, started, writeSettled(w, id, result, name, opts))
  return true
}

/** Params omitted or null: no arguments, one array for all (frozen: a handler cannot change it for the next). */
const NO_PARAMS: readonly unknown[] = Object.freeze([])

function writeEarly(w: ReplyWriter, id: Id, e: RpcError): Outcome {
  writeError(w, id, e)
  return true
}

/** A handler's promised answer, as its own buffer once settled (undefined for a notification). */
function promised(
  result: Promise<Reply>,
  hasId: boolean,
  id: Id,
  w: ReplyWriter,
  opts: EnvelopeOptions,
  name: string,
  label: string,
  started: number,
  budget: ReplyBudget | undefined,
): Promise<Buffer | undefined> {
  const observed = (code: number) => observeCall(opts, label, started, code)
  // Settles in a later turn, when `w` holds someone else's reply: answer into it and take a copy at once.
  const answer = (write: (into: ReplyWriter | undefined) => number): Buffer | undefined => {
    if (!hasId) {
      observed(write(undefined))
      return undefined
    }
    w.reset()
    observed(write(w))
    if (budget !== undefined) budget.spent += w.length
    return w.copy()
  }
  // A batch's answer that settles once the batch's reply has passed its bound is not kept.
  const over = () => budget !== undefined && budget.spent > budget.max
  const settled = (into: ReplyWriter, r: Reply) => (over() ? writeFailure(into, id, TOO_LARGE, name, opts) : writeSettled(into, id, r, name, opts))
  return result.then(
    (r) => {
      const whole = hasId && !over() ? bigRawReply(id, r, opts.maxReplyBytes ?? Number.POSITIVE_INFINITY) : undefined
      if (whole === undefined) return answer((into) => (into === undefined ? 0 : settled(into, r)))
      observed(0)
      if (budget !== undefined) budget.spent += whole.length
      return whole
    },
    (e: unknown) => answer((into) => writeFailure(into, id, e, name, opts)),
  )
}

/**
 * A body's text: decoded from its bytes as they are, no Buffer made around them (~0.23 against ~0.5 µs a body
 * in-process); a byte order mark kept, as Buffer#toString keeps it (JSON.parse then refuses it, as geth does).
 */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** The serving thread's writer: every synchronous reply is built in it, then copied out by the transport. */
const shared = new ReplyWriter()

/**
 * A JSON-RPC 2.0 body (single request or batch; its bytes, or its text when the transport decoded it) to the
 * reply's bytes, or undefined when nothing is to be sent (only notifications). When every handler answers
 * synchronously the reply comes back at once, as a view of a shared buffer that is valid only until the next call:
 * send it before doing anything else. A promised reply is a buffer of its own. Never throws or rejects: every
 * failure becomes a JSON-RPC error object. The body is read before this returns and not kept. `clientCtx` gives the
 * context whose lane counts the calls as the sending client's; it is asked, synchronously, only when the body names a
 * method that runs in the lane.
 */
export function handleBody(
  body: Uint8Array | string,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
  clientCtx: () => NodeContext = () => ctx,
): Buffer | undefined | Promise<Buffer | undefined> {
  const w = shared
  w.reset()
  let parsed: unknown
  const text = typeof body === 'string' ? body : UTF8.decode(body)
  try {
    parsed = JSON.parse(text)
  } catch {
    writeError(w, null, new ParseError('parse error'))
    return w.view()
  }
  const scope = new BodyScope(text, parsed, table, clientCtx, ctx)
  if (!Array.isArray(parsed)) {
    const out = handleOne(parsed, w, table, opts, ctx, scope, -1)
    return out === true ? w.view() : out === false ? undefined : out
  }
  if (parsed.length === 0) {
    writeError(w, null, new InvalidRequestError('empty batch'))
    return w.view()
  }
  if (parsed.length > opts.maxBatch) {
    writeError(w, null, new InvalidRequestError(`batch too large: ${parsed.length} requests, limit ${opts.maxBatch}`))
    return w.view()
  }
  const budget: ReplyBudget = { spent: 0, max: opts.maxBatchReplyBytes ?? Number.POSITIVE_INFINITY }
  // The batch's synchronous answers in one run: its state reads at the head check the head once (util/syncRun.ts).
  return syncRun(() => handleBatch(parsed, w, table, opts, ctx, scope, budget))
}

function isPoolCall(item: unknown, table: MethodTable): boolean {
  const method = typeof item === 'object' && item !== null ? (item as { method?: unknown }).method : undefined
  if (typeof method !== 'string') return false
  const runsIn = table.get(method)?.runsIn
  return runsIn === 'pool' || runsIn === 'threadFirst'
}

/** One instance: thrown for every refused call of a flood, it must not cost a stack trace each time. */
const OVERLOADED = new LimitExceededError()
const TOO_LARGE = new ResponseTooLargeError()

/** A batch's answers: at once, or in a turn of its own when other public work waits for the serving thread. */
function handleBatch(
  items: unknown[],
  w: ReplyWriter,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
  scope: BodyScope,
  budget: ReplyBudget,
): Buffer | undefined | Promise<Buffer | undefined> {
  const turns = opts.turns
  // Public work waits for its turn: this batch takes one too, then answers as at an idle thread: its synchronous
  // answers written one after another in one run (one head check, one snapshot), not each in a part of its own.
  if (turns !== undefined && turns.queued > 0 && opts.queueArrivingBatches !== false) {
    return turns.next().then(() => {
      // The shared writer was others' while this batch waited.
      w.reset()
      const out = syncRun(() => answerBatch(items, w, table, opts, ctx, scope, budget))
      // Settled later than the body's handling: the caller reads it after others have used the shared writer.
      return out instanceof Promise || out === undefined ? out : Buffer.from(out)
    })
  }
  return answerBatch(items, w, table, opts, ctx, scope, budget)
}

/**
 * A batch's answers from its start, in this turn of the thread for up to BATCH_SLICE_MS. While every answer is
 * synchronous they are written one after another into `w`. From the first promised answer on, or past the slice,
 * each answer becomes a part of its own, and the batch is joined once all have settled (`rest`).
 */
function answerBatch(
  items: unknown[],
  w: ReplyWriter,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
  scope: BodyScope,
  budget: ReplyBudget,
): Buffer | undefined | Promise<Buffer | undefined> {
  const turns = opts.turns
  // One clock read a call: a call's time starts where the one before ended, and the slice is checked against it.
  const timed = turns !== undefined || opts.observe !== undefined
  let lap = timed ? performance.now() : 0
  const started = lap
  w.str('[')
  let written = 0
  for (let index = 0; index < items.length; index++) {
    if (turns !== undefined && index > 0 && lap - started > BATCH_SLICE_MS) {
      const first = written > 0 ? w.copy(1) : undefined
      return rest(items, index, [first], w, table, opts, ctx, scope, budget, true)
    }
    const before = w.length
    if (written > 0) w.str(',')
    scope.callEnded = undefined
    const out = handleOne(items[index], w, table, opts, ctx, scope, index, budget, lap)
    if (timed) lap = scope.callEnded ?? performance.now()
    if (out === true) {
      written++
      budget.spent += w.length - before
    } else {
      w.truncate(before)
      if (out !== false) {
        const first = written > 0 ? w.copy(1) : undefined
        return rest(items, index + 1, [first, out], w, table, opts, ctx, scope, budget, false)
      }
    }
  }
  if (written === 0) return undefined
  w.str(']')
  return w.view()
}

/**
 * A batch's answers promised at most this many at a time: a call starts once an earlier one has settled, so that a
 * batch whose reply passes its bound starts nothing more (its calls left are answered -32003 without running, as
 * geth's), and one batch of heavy calls holds a few places of the thread's turns and the lane, not all of them.
 */
const BATCH_WINDOW = 8

/** How long a batch answers on the serving thread before it waits for a turn (with `EnvelopeOptions.turns`), ms. */
const BATCH_SLICE_MS = 1

/**
 * The batch's calls from `from` on, no more than BATCH_WINDOW of them promised at once, in turns of BATCH_SLICE_MS
 * with `opts.turns` (the first at once unless `inTurn`); then the batch joined.
 */
async function rest(
  items: unknown[],
  from: number,
  parts: (Buffer | undefined | Promise<Buffer | undefined>)[],
  w: ReplyWriter,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
  scope: BodyScope,
  budget: ReplyBudget,
  inTurn: boolean,
): Promise<Buffer | undefined> {
  const turns = opts.turns
  let slice = performance.now()
  let turnWanted = inTurn
  const pending = new Set<Promise<unknown>>()
  const hold = (p: Promise<unknown>) => {
    const settled: Promise<unknown> = p.then(
      () => pending.delete(settled),
      () => pending.delete(settled),
    )
    pending.add(settled)
  }
  for (const p of parts) if (p instanceof Promise) hold(p)
  for (let index = from; index < items.length; index++) {
    while (pending.size >= BATCH_WINDOW) await Promise.race(pending)
    if (turns !== undefined && (turnWanted || performance.now() - slice > BATCH_SLICE_MS)) {
      await turns.next()
      slice = performance.now()
      turnWanted = false
    }
    // The shared writer is someone else's between turns: each answer is written and copied in one go.
    w.reset()
    const out = handleOne(items[index], w, table, opts, ctx, scope, index, budget)
    if (out === true) {
      budget.spent += w.length
      parts.push(w.copy())
    } else if (out === false) {
      parts.push(undefined)
    } else {
      hold(out)
      parts.push(out)
    }
  }
  const answers = await Promise.all(parts)
  const present = answers.filter((a): a is Buffer => a !== undefined)
  if (present.length === 0) return undefined
  const commas = present.flatMap((a, i) => (i === 0 ? [a] : [COMMA, a]))
  return Buffer.concat([OPEN, ...commas, CLOSE])
}

const OPEN = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']')
