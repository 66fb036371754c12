import { describe, expect, it } from 'vitest'
import { Turns } from './turns.js'

const nextPass = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('Turns', () => {
  it('gives one turn a pass of the event loop, in the order asked, each waiter going to the back again', async () => {
    const turns = new Turns()
    const order: string[] = []
    const worker = async (name: string, slices: number) => {
      for (let i = 0; i < slices; i++) {
        await turns.next()
        order.push(`${name}${i}`)
      }
    }
    let passes = 0
    const counting = (async () => {
      while (order.length < 5) {
        await nextPass()
        passes++
      }
    })()
    await Promise.all([worker('a', 3), worker('b', 2), counting])
    expect(order).toEqual(['a0', 'b0', 'a1', 'b1', 'a2'])
    // Other work (here, the counter) ran between turns.
    expect(passes).toBeGreaterThanOrEqual(4)
  })

  it('gives no turn while held, and goes on once every hold is released', async () => {
    const turns = new Turns()
    turns.hold()
    turns.hold()
    let given = false
    const waiter = turns.next().then(() => {
      given = true
    })
    for (let i = 0; i < 5; i++) await nextPass()
    turns.unhold()
    for (let i = 0; i < 5; i++) await nextPass()
    expect(given).toBe(false)
    turns.unhold()
    await waiter
    expect(given).toBe(true)
  })
})
