import { describe, expect, it } from 'vitest'
import { WorkerDeadline, WorkerStoppingError, createDeadlineBuffer, threadsToStop } from './deadlines.js'

describe('the deadline board', () => {
  it('stops a thread past its deadline only outside native calls, and one asked inside a call once it leaves', () => {
    const buffer = createDeadlineBuffer()
    const worker = new WorkerDeadline(buffer, 7)
    const live = new Set([7])
    worker.running(1_000)
    expect(threadsToStop(buffer, 999, live)).toEqual([])

    worker.enter()
    expect(threadsToStop(buffer, 1_000, live)).toEqual([]) // inside: asked to halt
    worker.leave()
    expect(() => worker.enter()).toThrow(WorkerStoppingError)
    expect(threadsToStop(buffer, 1_001, live)).toEqual([7])
    expect(threadsToStop(buffer, 1_002, live)).toEqual([]) // stopped once
    expect(threadsToStop(buffer, 1_003, new Set())).toEqual([]) // gone: the slot is free again

    const next = new WorkerDeadline(buffer, 8)
    next.running(2_000)
    expect(threadsToStop(buffer, 2_000, new Set([8]))).toEqual([8])
  })

  it('lets a thread that halted go on when its call ends before the watchdog stops it', () => {
    const buffer = createDeadlineBuffer()
    const worker = new WorkerDeadline(buffer, 9)
    worker.running(10)
    worker.enter()
    expect(threadsToStop(buffer, 10, new Set([9]))).toEqual([])
    worker.leave()
    worker.running(0)
    worker.enter()
    worker.leave()
    expect(threadsToStop(buffer, 20, new Set([9]))).toEqual([])
  })
})
