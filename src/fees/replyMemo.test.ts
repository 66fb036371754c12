import { describe, expect, it } from 'vitest'
import { ReplyMemo } from './replyMemo.js'

describe('ReplyMemo', () => {
  it('answers a kept reply within its generation only', () => {
    const memo = new ReplyMemo()
    expect(memo.get('a', 1)).toBeUndefined()
    memo.set('a', 1, 'reply a')
    expect(memo.get('a', 1)).toBe('reply a')
    expect(memo.get('a', 2)).toBeUndefined()
    // A reply made from a generation that has passed is not kept.
    memo.set('b', 1, 'reply b')
    expect(memo.get('b', 2)).toBeUndefined()
  })

  it('keeps at most its bounds, oldest dropped first, and no reply past a sixteenth of its characters', () => {
    const memo = new ReplyMemo({ replies: 3, chars: 160 })
    memo.get('', 1)
    for (const k of ['a', 'b', 'c', 'd']) memo.set(k, 1, k.repeat(10))
    expect(memo.size).toEqual({ replies: 3, chars: 30 })
    expect(memo.get('a', 1)).toBeUndefined()
    expect(memo.get('d', 1)).toBe('dddddddddd')
    memo.set('e', 1, 'e'.repeat(11))
    expect(memo.get('e', 1)).toBeUndefined()
  })
})
