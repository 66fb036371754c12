import { describe, expect, it } from 'vitest'
import { rawIds } from './rawIds.js'

describe('rawIds', () => {
  it('finds each request id as written, in batch order, whatever the member order and nesting', () => {
    const text =
      ' [ {"method":"x","params":[{"id":5},"}"],"id" : 1.50 }, 7, "s", {"id":"a\\"b"}, {"jsonrpc":"2.0"} ,{"id":123456789012345678901234567890}]'
    expect(rawIds(text, true)).toEqual(['1.50', undefined, undefined, '"a\\"b"', undefined, '123456789012345678901234567890'])
  })
  it('counts elements of every type, numbers of many characters included', () => {
    const text = '[4.029492900220455e-77, [1, 2], {"id":5}, null, true, "x,y", {"a":{"id":1},"id":123456789012345678901234567890}]'
    expect(rawIds(text, true)).toEqual([undefined, undefined, '5', undefined, undefined, undefined, '123456789012345678901234567890'])
  })
  it('reads the one id of a single request', () => {
    expect(rawIds('{"jsonrpc":"2.0","id":-9007199254740993,"method":"m"}', false)).toEqual(['-9007199254740993'])
  })
})
