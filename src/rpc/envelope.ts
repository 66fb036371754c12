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

/** One request object. Returns undefined for a notification (no id): it runs, but nothing is sent back. */
async function handleOne(raw: unknown, table: MethodTable, opts: EnvelopeOptions, ctx: NodeContext): Promise<Chunks | undefined> {
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
  let reply: Chunks
  try {
    const def = table.get(name)
    if (def === undefined || !opts.namespaces.has(def.namespace)) throw new MethodNotFoundError(name)
    const params = req.params === undefined || req.params === null ? [] : req.params
    if (!Array.isArray(params)) throw new InvalidParamsError('non-array args')
    const checked = def.validate(params)
    if (!checked.success) throw new InvalidParamsError(describeValidation(checked))
    reply = resultChunks(id, await def.handle(checked.data as never, ctx))
  } catch (e) {
    if (e instanceof RpcError) {
      reply = errorChunks(id, e)
    } else {
      opts.onInternalError?.(name, e)
      reply = errorChunks(id, new InternalError(e instanceof Error ? e.message : 'Internal error'))
    }
  }
  return hasId ? reply : undefined
}

/**
 * A JSON-RPC 2.0 body (single request or batch) to the reply's chunks, or undefined when nothing is to be sent
 * (only notifications). Never throws: every failure becomes a JSON-RPC error object.
 */
export async function handleBody(
  body: Uint8Array,
  table: MethodTable,
  opts: EnvelopeOptions,
  ctx: NodeContext,
): Promise<Chunks | undefined> {
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
  const replies = await Promise.all(parsed.map((r) => handleOne(r, table, opts, ctx)))
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
