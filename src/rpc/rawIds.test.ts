import { describe, expect, it } from 'vitest'
import { rawIds } from './rawIds.js'

describe('rawIds', () => {
  it('finds each request id as written, in batch order, whatever the member order and nesting', () => {
    const text = ' [ {"method":"x","params":[{"id":5},"}"],"id" : 1.50 }, 7, "s", {"id":"a\\"b"}, {"jsonrpc":"2.0"} ,{"id":123456789012345678901234567890}]'
    expect(rawIds(text, true)).toEqual(['1.50', undefined, undefined, '"a\\"b"', undefined, '123456789012345678901234567890'])
  })
  it('reads the one id of a single request', () => {
    expect(rawIds('{"jsonrpc":"2.0","id":-9007199254740993,"method":"m"}', false)).toEqual(['-9007199254740993'])
  })
})
