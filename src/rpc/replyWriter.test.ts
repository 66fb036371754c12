import { describe, expect, it } from 'vitest'
import { ReplyWriter } from './replyWriter.js'

describe('ReplyWriter', () => {
  it('appends ASCII, non-ASCII text and bytes, and grows past its first buffer', () => {
    const w = new ReplyWriter(8)
    w.str('{"a":')
    w.str('"ü€"')
    w.bytes(Buffer.from(',"b":[1,2,3]'))
    w.str(`,"c":"${'x'.repeat(100)}"}`)
    expect(JSON.parse(w.view().toString())).toEqual({ a: 'ü€', b: [1, 2, 3], c: 'x'.repeat(100) })
  })
  it('truncates, and lends views that the next reply overwrites while copies stay', () => {
    const w = new ReplyWriter(64)
    w.str('[1,')
    const at = w.length
    w.str('2')
    w.truncate(at)
    w.str('3]')
    const lent = w.view()
    const kept = w.copy(1)
    expect(lent.toString()).toBe('[1,3]')
    w.reset()
    w.str('"later"')
    expect(lent.toString()).not.toBe('[1,3]')
    expect(kept.toString()).toBe('1,3]')
  })
})
