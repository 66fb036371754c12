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

export interface EnvelopeOptions {
  maxBatch: number
  /** Namespaces served on this endpoint; other methods answer -32601 as if they did not exist. */
  namespaces: ReadonlySet<Namespace>
  onInternalError?: (method: string, e: unknown) => void
}

type Id = string | number | null
type Chunks = (string | Uint8Array)[]

const PREFIX = '{"jsonrpc":"2.0","id":'

function errorChunks(id: Id, e: RpcError): Chunks {
  const error: { code: number; message: string; data?: unknown } = { code: e.code, message: e.message }
  if (e.data !== undefined) error.data = e.data
  return [`${PREFIX}${JSON.stringify(id)},"error":${JSON.stringify(error)}}`]
}

function resultChunks(id: Id, result: Reply): Chunks {
  const head = `${PREFIX}${JSON.stringify(id)},"result":`
  if (result instanceof RawJson) return [head, ...result.chunks, '}']
  return [`${head}${JSON.stringify(result)}}`]
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

type Outcome = Chunks | undefined

function failure(id: Id, e: unknown, name: string, opts: EnvelopeOptions): Chunks {
  if (e instanceof RpcError) return errorChunks(id, e)
  opts.onInternalError?.(name, e)
  return errorChunks(id, new InternalError(e instanceof Error ? e.message : 'Internal error'))
}

/**
 * One request object. Returns undefined for a notification (no id): it runs, but nothing is sent back. Handlers
 * that answer synchronously (store reads) are answered without creating a promise.
 */
function handleOne(raw: unknown, table: MethodTable, opts: EnvelopeOptions, ctx: NodeContext): Outcome | Promise<Outcome> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return errorChunks(null, new InvalidRequestError('invalid request'))
  }
  const req = raw as Record<string, unknown>
  const hasId = 'id' in req
  const id = hasId && isValidId(req.id) ? req.id : null
  if (hasId && !isValidId(req.id)) return errorChunks(null, new InvalidRequestError('invalid request id'))
  if (req.jsonrpc !== '2.0') return errorChunks(id, new InvalidRequestError('invalid request: jsonrpc must be "2.0"'))
  if (typeof req.method !== 'string') return errorChunks(id, new InvalidRequestError('invalid request: no method'))
  const name = req.method
  const reply = (chunks: Chunks): Outcome => (hasId ? chunks : undefined)
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
    return reply(failure(id, e, name, opts))
  }
  if (result instanceof Promise) {
    return result.then(
      (r) => reply(resultChunks(id, r)),
      (e: unknown) => reply(failure(id, e, name, opts)),
    )
  }
  return reply(resultChunks(id, result))
}

/**
 * A JSON-RPC 2.0 body (single request or batch) to the reply's chunks, or undefined when nothing is to be sent
 * (only notifications) — synchronously when every handler answered synchronously. Never throws or rejects: every
 * failure becomes a JSON-RPC error object.
 */
export function handleBody(
  body: Uint8Array,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
): Outcome | Promise<Outcome> {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'))
  } catch {
    return errorChunks(null, new ParseError('parse error'))
  }
  if (!Array.isArray(parsed)) return handleOne(parsed, table, opts, ctx)
  if (parsed.length === 0) return errorChunks(null, new InvalidRequestError('empty batch'))
  if (parsed.length > opts.maxBatch) {
    return errorChunks(null, new InvalidRequestError(`batch too large: ${parsed.length} requests, limit ${opts.maxBatch}`))
  }
  const pending = parsed.map((r) => handleOne(r, table, opts, ctx))
  if (pending.some((r) => r instanceof Promise)) return Promise.all(pending).then(joinBatch)
  return joinBatch(pending as Outcome[])
}

function joinBatch(replies: Outcome[]): Outcome {
  const out: Chunks = ['[']
  let first = true
  for (const r of replies) {
    if (r === undefined) continue
    if (!first) out.push(',')
    out.push(...r)
    first = false
  }
  if (first) return undefined
  out.push(']')
  return out
}
