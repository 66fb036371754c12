import { describe, expect, it } from 'vitest'
import { JsonWriter, jsonText } from './jsonWriter.js'
import { type ReceiptFacts, logJson, receiptJson, writeLogJson, writeReceiptJson } from './receipt.js'

const text = (w: JsonWriter) => Buffer.from(w.bytes()).toString('latin1')

describe('JsonWriter', () => {
  it('writes quantities minimal, as toString(16) would, on both sides of 2^53', () => {
    const values = [0n, 1n, 15n, 16n, 255n, 256n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 52n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 64n - 1n, 2n ** 256n - 1n]
    for (const v of values) {
      expect(jsonText((w) => w.quantity(v))).toBe(`"0x${v.toString(16)}"`)
      if (v <= BigInt(Number.MAX_SAFE_INTEGER)) expect(jsonText((w) => w.quantity(Number(v)))).toBe(`"0x${v.toString(16)}"`)
    }
  })

  it('writes bytes as lowercase hex, empty as "0x", and absent as null', () => {
    expect(jsonText((w) => w.hex(new Uint8Array([0, 0xab, 0x0f, 0xff])))).toBe('"0x00ab0fff"')
    expect(jsonText((w) => w.hex(new Uint8Array(0)))).toBe('"0x"')
    expect(jsonText((w) => w.hexOrNull(undefined))).toBe('null')
  })

  it('keeps what was written when it grows, and slices by marks taken before', () => {
    const w = new JsonWriter(4)
    const marks: number[] = []
    for (let i = 0; i < 100; i++) {
      marks.push(w.mark())
      w.quantity(i)
    }
    marks.push(w.mark())
    for (let i = 0; i < 100; i++) expect(Buffer.from(w.slice(marks[i]!, marks[i + 1]!)).toString()).toBe(`"0x${i.toString(16)}"`)
    expect(text(w).length).toBe(w.bytes().length)
  })
})

const facts = (over: Partial<ReceiptFacts>): ReceiptFacts => ({
  blockHash: new Uint8Array(32).fill(1),
  blockNumber: 7n,
  blockTimestamp: 1_700_000_000n,
  txHash: new Uint8Array(32).fill(2),
  index: 3,
  type: 2,
  from: new Uint8Array(20).fill(3),
  to: new Uint8Array(20).fill(4),
  contractAddress: undefined,
  cumulativeGasUsed: 100_000n,
  gasUsed: 21_000n,
  effectiveGasPrice: 10n ** 9n,
  status: 1,
  root: undefined,
  logsBloom: new Uint8Array(256),
  logs: [[new Uint8Array(20).fill(5), [new Uint8Array(32).fill(6)], new Uint8Array([1, 2])]],
  firstLogIndex: 4,
  blobGasUsed: undefined,
  blobGasPrice: undefined,
  ...over,
})

describe('receipt JSON', () => {
  it("has geth's fields in order, the absent ones left out, and parses", () => {
    const post = JSON.parse(receiptJson(facts({}))) as Record<string, unknown>
    expect(Object.keys(post)).toEqual([
      'blockHash',
      'blockNumber',
      'contractAddress',
      'cumulativeGasUsed',
      'effectiveGasPrice',
      'from',
      'gasUsed',
      'logs',
      'logsBloom',
      'status',
      'to',
      'transactionHash',
      'transactionIndex',
      'type',
    ])
    expect(post.contractAddress).toBe(null)
    expect(post.status).toBe('0x1')
    const pre = JSON.parse(receiptJson(facts({ status: undefined, root: new Uint8Array(32), blobGasUsed: 131072n, blobGasPrice: 1n })))
    expect(Object.keys(pre).slice(0, 2)).toEqual(['blobGasPrice', 'blobGasUsed'])
    expect(pre.root).toBe(`0x${'00'.repeat(32)}`)
    expect('status' in pre).toBe(false)
  })

  it('splices the logs a block wrote once: the same bytes as each log written in place', () => {
    const f = facts({})
    const w = new JsonWriter()
    writeReceiptJson(w, f, (w) => writeLogJson(w, f.logs[0]!, f, f.firstLogIndex))
    expect(text(w)).toBe(receiptJson(f))
    const log = JSON.parse(logJson(f.logs[0]!, f, 4)) as Record<string, unknown>
    expect(log.logIndex).toBe('0x4')
    expect(log.removed).toBe(false)
    expect((JSON.parse(receiptJson(f)) as { logs: unknown[] }).logs).toEqual([log])
  })
})
