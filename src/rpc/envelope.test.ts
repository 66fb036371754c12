import typia from 'typia'
import { describe, expect, it } from 'vitest'
import type { NodeContext } from './context.js'
import { handleBody } from './envelope.js'
import { InvalidParamsError, RpcError } from './errors.js'
import { type MethodTable, method } from './methodTable.js'
import { RawJson } from './reply.js'
import type { Quantity } from '../wire/primitives.js'
import { syncRunId } from '../util/syncRun.js'
import { Turns } from '../util/turns.js'

const table: MethodTable = new Map([
  ['test_echo', method('eth', typia.createValidate<[Quantity]>(), ([q]) => q)],
  [
    'test_fail',
    method('eth', typia.createValidate<[]>(), () => {
      throw new RpcError(-39001, 'Unknown block')
    }),
  ],
  [
    'test_crash',
    method('eth', typia.createValidate<[]>(), () => {
      throw new TypeError('boom')
    }),
  ],
  [
    'test_params',
    method('eth', typia.createValidate<[]>(), () => {
      throw new InvalidParamsError('nope')
    }),
  ],
  ['testing_hidden', method('testing', typia.createValidate<[]>(), () => 'secret')],
  // The synchronous run the call was answered in (util/syncRun.ts): a batch's state reads share one head check in one.
  ['test_run', method('eth', typia.createValidate<[]>(), () => `0x${syncRunId().toString(16)}`)],
  ['test_later', method('eth', typia.createValidate<[Quantity]>(), ([q]) => Promise.resolve(q))],
  // An answer kept for one exact parameter (MethodDef.kept), else the validator and the handler as always.
  [
    'test_kept',
    method(
      'eth',
      typia.createValidate<[Quantity]>(),
      ([q]) => `handled ${q}`,
      'thread',
      (params) => (params.length === 1 && params[0] === '0x7' ? 'kept 0x7' : undefined),
    ),
  ],
  ['test_laterFail', method('eth', typia.createValidate<[]>(), () => Promise.reject(new RpcError(-39001, 'later')))],
  // Like the store's transient views: the same memory, rewritten by the next call.
  [
    'test_view',
    method('eth', typia.createValidate<[]>(), () => {
      transient.write(`"v${++views}"`)
      return RawJson.of(transient.subarray(0, 4))
    }),
  ],
])
const transient = Buffer.alloc(4)
let views = 0
const ctx = {} as NodeContext
const opts = { maxBatch: 8, namespaces: new Set(['eth'] as const) }

async function call(body: string): Promise<unknown> {
  const out = await handleBody(Buffer.from(body), table, opts, ctx)
  return out === undefined ? undefined : JSON.parse(Buffer.from(out).toString())
}

const err = (id: unknown, code: number) => ({ jsonrpc: '2.0', id, error: expect.objectContaining({ code }) })

describe('JSON-RPC envelope', () => {
  it('answers a single request with its id', async () => {
    expect(await call('{"jsonrpc":"2.0","id":"a","method":"test_echo","params":["0x1"]}')).toEqual({
      jsonrpc: '2.0',
      id: 'a',
      result: '0x1',
    })
  })
  it('answers -32700 to malformed JSON', async () => {
    expect(await call('{"jsonrpc":')).toEqual(err(null, -32700))
    // A byte order mark is not JSON (geth's decoder refuses it too): kept by the decoding, refused by the parse.
    expect(await call('\ufeff{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["0x1"]}')).toEqual(err(null, -32700))
  })
  it('answers -32600 to requests that are not JSON-RPC 2.0', async () => {
    expect(await call('{"id":1,"method":"test_echo"}')).toEqual(err(1, -32600))
    expect(await call('{"jsonrpc":"2.0","id":1}')).toEqual(err(1, -32600))
    expect(await call('{"jsonrpc":"2.0","id":{},"method":"test_echo"}')).toEqual(err(null, -32600))
    expect(await call('"hello"')).toEqual(err(null, -32600))
    expect(await call('[]')).toEqual(err(null, -32600))
  })
  it('answers -32601 to unknown methods and to namespaces not enabled', async () => {
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"nope"}')).toEqual(err(1, -32601))
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"testing_hidden"}')).toEqual(err(1, -32601))
  })
  it('answers -32602 with the reason for bad params', async () => {
    const r = (await call('{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["0x01"]}')) as {
      error: { message: string }
    }
    expect(r).toEqual(err(1, -32602))
    expect(r.error.message).toMatch(/argument 0/)
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"test_echo","params":{"a":1}}')).toEqual(err(1, -32602))
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"test_params"}')).toEqual(err(1, -32602))
  })
  it("gives a method's kept answer before validating, and validates and handles whatever it does not keep", async () => {
    const result = async (params: string) =>
      ((await call(`{"jsonrpc":"2.0","id":1,"method":"test_kept","params":${params}}`)) as { result?: string }).result
    expect(await result('["0x7"]')).toBe('kept 0x7')
    expect(await result('["0x8"]')).toBe('handled 0x8')
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"test_kept","params":["0x07"]}')).toEqual(err(1, -32602))
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"test_kept","params":{"0":"0x7"}}')).toEqual(err(1, -32602))
  })
  it('maps domain errors by class and anything else to -32603', async () => {
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"test_fail"}')).toEqual(err(1, -39001))
    expect(await call('{"jsonrpc":"2.0","id":1,"method":"test_crash"}')).toEqual(err(1, -32603))
  })
  it('runs notifications without replying, and leaves them out of batches', async () => {
    expect(await call('{"jsonrpc":"2.0","method":"test_echo","params":["0x1"]}')).toBeUndefined()
    expect(
      await call('[{"jsonrpc":"2.0","method":"test_echo","params":["0x1"]},{"jsonrpc":"2.0","id":2,"method":"test_echo","params":["0x2"]}]'),
    ).toEqual([{ jsonrpc: '2.0', id: 2, result: '0x2' }])
  })
  it('answers each member of a batch in order, and refuses batches over the limit', async () => {
    expect(await call('[{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["0x1"]},5]')).toEqual([
      { jsonrpc: '2.0', id: 1, result: '0x1' },
      err(null, -32600),
    ])
    const four = JSON.stringify(
      Array.from({ length: opts.maxBatch + 1 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'test_echo', params: ['0x1'] })),
    )
    expect(await call(four)).toEqual(err(null, -32600))
  })
  it('copies each answer before the next handler runs, so transient store views cannot bleed into each other', async () => {
    views = 0
    const two = '[{"jsonrpc":"2.0","id":1,"method":"test_view"},{"jsonrpc":"2.0","id":2,"method":"test_view"}]'
    expect(await call(two)).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'v1' },
      { jsonrpc: '2.0', id: 2, result: 'v2' },
    ])
  })
  it('keeps batch order when synchronous and promised answers mix', async () => {
    views = 0
    const mixed = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'test_view' },
      { jsonrpc: '2.0', id: 2, method: 'test_later', params: ['0x2'] },
      { jsonrpc: '2.0', method: 'test_later', params: ['0x9'] },
      { jsonrpc: '2.0', id: 3, method: 'test_view' },
      { jsonrpc: '2.0', id: 4, method: 'test_laterFail' },
      { jsonrpc: '2.0', id: 5, method: 'test_echo', params: ['0x5'] },
    ])
    expect(await call(mixed)).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'v1' },
      { jsonrpc: '2.0', id: 2, result: '0x2' },
      { jsonrpc: '2.0', id: 3, result: 'v2' },
      err(4, -39001),
      { jsonrpc: '2.0', id: 5, result: '0x5' },
    ])
    expect(await call('[{"jsonrpc":"2.0","method":"test_later","params":["0x1"]}]')).toBeUndefined()
    expect(await call('[{"jsonrpc":"2.0","id":7,"method":"test_later","params":["0x7"]}]')).toEqual([{ jsonrpc: '2.0', id: 7, result: '0x7' }])
  })
  it('answers a batch that waited for its turn in one run, as an idle thread would, and in memory of its own', async () => {
    const turns = new Turns()
    const waited = { ...opts, turns }
    const batch = (id: number) => JSON.stringify([1, 2, 3].map((i) => ({ jsonrpc: '2.0', id: id + i, method: 'test_run' })))
    // Other public work waits for a turn: the batch takes one behind it.
    const before = turns.next()
    const out = handleBody(Buffer.from(batch(0)), table, waited, ctx)
    expect(out).toBeInstanceOf(Promise)
    // Another body answered meanwhile writes the envelope's shared memory; the batch's reply is its own.
    const meanwhile = handleBody(Buffer.from(batch(10)), table, opts, ctx)
    expect(meanwhile).toBeInstanceOf(Buffer)
    await before
    const answers = JSON.parse(Buffer.from((await out)!).toString()) as { id: number; result: string }[]
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3])
    const runs = new Set(answers.map((a) => a.result))
    expect(runs.size).toBe(1)
    expect(runs.has('0x0')).toBe(false)
    expect(turns.given).toBe(2)
  })
  it('answers an arriving batch at once, not behind work waiting for a turn, where told so (a serving thread)', async () => {
    const turns = new Turns()
    const body = Buffer.from(JSON.stringify([1, 2].map((i) => ({ jsonrpc: '2.0', id: i, method: 'test_run' }))))
    const before = turns.next()
    const out = handleBody(body, table, { ...opts, turns, queueArrivingBatches: false }, ctx)
    expect(out).toBeInstanceOf(Buffer)
    expect((JSON.parse(Buffer.from(out as Buffer).toString()) as { id: number }[]).map((a) => a.id)).toEqual([1, 2])
    await before
    expect(turns.given).toBe(1)
  })
})
