import type { IValidation } from 'typia'
import type { NodeContext } from '../node/context.js'
import {
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
  RpcError,
} from './errors.js'
import type { MethodTable, Namespace } from './methodTable.js'
import { RawJson, type Reply } from './reply.js'
import { ReplyWriter } from './replyWriter.js'

export interface EnvelopeOptions {
  maxBatch: number
  /** Namespaces served on this endpoint; other methods answer -32601 as if they did not exist. */
  namespaces: ReadonlySet<Namespace>
  onInternalError?: (method: string, e: unknown) => void
}

type Id = string | number | null

const PREFIX = '{"jsonrpc":"2.0","id":'

function writeError(w: ReplyWriter, id: Id, e: RpcError): void {
  const error: { code: number; message: string; data?: unknown } = { code: e.code, message: e.message }
  if (e.data !== undefined) error.data = e.data
  w.str(`${PREFIX}${JSON.stringify(id)},"error":${JSON.stringify(error)}}`)
}

/** Raw chunks may be transient store views: they are copied here, before any other read. */
function writeResult(w: ReplyWriter, id: Id, result: Reply): void {
  w.str(`${PREFIX}${JSON.stringify(id)},"result":`)
  if (result instanceof RawJson) {
    for (const c of result.chunks) {
      if (typeof c === 'string') w.str(c)
      else w.bytes(c)
    }
    w.str('}')
  } else {
    w.str(`${JSON.stringify(result)}}`)
  }
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

function isValidId(id: unknown): id is Id {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))
}

/** Written into the writer (true), nothing to send for a notification (false), or an answer still to come. */
type Outcome = boolean | Promise<Buffer | undefined>

function writeFailure(w: ReplyWriter, id: Id, e: unknown, name: string, opts: EnvelopeOptions): void {
  if (e instanceof RpcError) return writeError(w, id, e)
  opts.onInternalError?.(name, e)
  writeError(w, id, new InternalError(e instanceof Error ? e.message : 'Internal error'))
}

/** Writes a handler's result, or the internal error it turns into when it cannot be encoded. */
function writeSettled(w: ReplyWriter, id: Id, result: Reply, name: string, opts: EnvelopeOptions): void {
  const at = w.length
  try {
    writeResult(w, id, result)
  } catch (e) {
    w.truncate(at)
    writeFailure(w, id, e, name, opts)
  }
}

/**
 * One request object, answered into `w` when its handler is synchronous (store reads): no promise and no buffer
 * of its own. A notification (no id) runs, but nothing is sent back.
 */
function handleOne(raw: unknown, w: ReplyWriter, table: MethodTable, opts: EnvelopeOptions, ctx: NodeContext): Outcome {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    writeError(w, null, new InvalidRequestError('invalid request'))
    return true
  }
  const req = raw as Record<string, unknown>
  const hasId = 'id' in req
  const id = hasId && isValidId(req.id) ? req.id : null
  const early = (e: RpcError): Outcome => {
    writeError(w, id, e)
    return true
  }
  if (hasId && !isValidId(req.id)) return early(new InvalidRequestError('invalid request id'))
  if (req.jsonrpc !== '2.0') return early(new InvalidRequestError('invalid request: jsonrpc must be "2.0"'))
  if (typeof req.method !== 'string') return early(new InvalidRequestError('invalid request: no method'))
  const name = req.method
  let result: Reply | Promise<Reply>
  try {
    const def = table.get(name)
    if (def === undefined || !opts.namespaces.has(def.namespace)) throw new MethodNotFoundError(name)
    const params = req.params === undefined || req.params === null ? [] : req.params
    if (!Array.isArray(params)) throw new InvalidParamsError('non-array args')
    const checked = def.validate(params)
    if (!checked.success) throw new InvalidParamsError(describeValidation(checked))
    result = def.handle(checked.data as never, ctx)
  } catch (e) {
    if (!hasId) return false
    writeFailure(w, id, e, name, opts)
    return true
  }
  if (result instanceof Promise) {
    // Settles in a later turn, when `w` holds someone else's reply: answer into it and take a copy at once.
    const answer = (write: () => void): Buffer | undefined => {
      if (!hasId) return undefined
      w.reset()
      write()
      return w.copy()
    }
    return result.then(
      (r) => answer(() => writeSettled(w, id, r, name, opts)),
      (e: unknown) => answer(() => writeFailure(w, id, e, name, opts)),
    )
  }
  if (!hasId) return false
  writeSettled(w, id, result, name, opts)
  return true
}

/** The serving thread's writer: every synchronous reply is built in it, then copied out by the transport. */
const shared = new ReplyWriter()

/**
 * A JSON-RPC 2.0 body (single request or batch) to the reply's bytes, or undefined when nothing is to be sent
 * (only notifications). When every handler answers synchronously the reply comes back at once, as a view of a
 * shared buffer that is valid only until the next call: send it before doing anything else. A promised reply is a
 * buffer of its own. Never throws or rejects: every failure becomes a JSON-RPC error object. The body is read
 * before this returns and not kept.
 */
export function handleBody(
  body: Uint8Array,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
): Buffer | undefined | Promise<Buffer | undefined> {
  const w = shared
  w.reset()
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'))
  } catch {
    writeError(w, null, new ParseError('parse error'))
    return w.view()
  }
  if (!Array.isArray(parsed)) {
    const out = handleOne(parsed, w, table, opts, ctx)
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
  return handleBatch(parsed, w, table, opts, ctx)
}

/**
 * While every answer is synchronous they are written one after another into `w`. From the first promised answer
 * on, each answer becomes a part of its own, and the batch is joined once all have settled.
 */
function handleBatch(
  items: unknown[],
  w: ReplyWriter,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
): Buffer | undefined | Promise<Buffer | undefined> {
  w.str('[')
  let parts: (Buffer | undefined | Promise<Buffer | undefined>)[] | undefined
  let written = 0
  for (const item of items) {
    if (parts !== undefined) {
      w.reset()
      const out = handleOne(item, w, table, opts, ctx)
      parts.push(out === true ? w.copy() : out === false ? undefined : out)
      continue
    }
    const before = w.length
    if (written > 0) w.str(',')
    const out = handleOne(item, w, table, opts, ctx)
    if (out === true) {
      written++
    } else {
      w.truncate(before)
      if (out !== false) parts = [written > 0 ? w.copy(1) : undefined, out]
    }
  }
  if (parts === undefined) {
    if (written === 0) return undefined
    w.str(']')
    return w.view()
  }
  return Promise.all(parts).then((answers) => {
    const present = answers.filter((a): a is Buffer => a !== undefined)
    if (present.length === 0) return undefined
    const commas = present.flatMap((a, i) => (i === 0 ? [a] : [COMMA, a]))
    return Buffer.concat([OPEN, ...commas, CLOSE])
  })
}

const OPEN = Buffer.from('[')
const COMMA = Buffer.from(',')
const CLOSE = Buffer.from(']')
