import { describe, expect, it } from 'vitest'
import { KeyedLock } from './keyedLock.js'

describe('KeyedLock', () => {
  it('runs one key’s work one at a time, in arrival order; other keys meanwhile', async () => {
    const lock = new KeyedLock()
    const order: string[] = []
    let inside = 0
    let most = 0
    // Each run yields several turns while it holds the key: an overlap would show in `most`.
    const work = (tag: string) => async () => {
      inside++
      most = Math.max(most, inside)
      for (let i = 0; i < 3; i++) await Promise.resolve()
      order.push(tag)
      inside--
      return tag
    }
    let otherDone = false
    const other = lock.run('b', async () => {
      otherDone = true
    })
    const runs = ['1', '2', '3', '4'].map((t) => lock.run('a', work(t)))
    await other
    expect(otherDone).toBe(true)
    expect(await Promise.all(runs)).toEqual(['1', '2', '3', '4'])
    expect(order).toEqual(['1', '2', '3', '4'])
    expect(most).toBe(1)
    expect(lock.size).toBe(0)
  })

  it('releases the key when the work fails: the next run goes on, and nothing is left held', async () => {
    const lock = new KeyedLock()
    const failed = lock.run('a', () => Promise.reject(new Error('estimate reverted')))
    const next = lock.run('a', () => Promise.resolve('next'))
    await expect(failed).rejects.toThrow('estimate reverted')
    expect(await next).toBe('next')
    expect(lock.size).toBe(0)
  })
})
