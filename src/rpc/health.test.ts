import { describe, expect, it } from 'vitest'
import { decideHealth, defaultHealthMaxAge, healthReply } from './health.js'

const head = { number: 42n, timestamp: 1_000n }

describe('health for balancers', () => {
  it('ok while serving and the head is no older than the bound; stale past it', () => {
    expect(decideHealth({ lifecycle: 'serving', head, nowSeconds: 1_060, maxAgeSeconds: 60 })).toEqual({ status: 'ok', head: 42, age: 60 })
    expect(decideHealth({ lifecycle: 'serving', head, nowSeconds: 1_061.9, maxAgeSeconds: 60 })).toEqual({ status: 'stale', head: 42, age: 61 })
  })

  it('a bound of 0 is never stale; a head from the future has age 0', () => {
    expect(decideHealth({ lifecycle: 'serving', head, nowSeconds: 1e9, maxAgeSeconds: 0 }).status).toBe('ok')
    expect(decideHealth({ lifecycle: 'serving', head, nowSeconds: 900, maxAgeSeconds: 60 })).toEqual({ status: 'ok', head: 42, age: 0 })
  })

  it('starting and draining win over freshness, and still say the head', () => {
    expect(decideHealth({ lifecycle: 'starting', head, nowSeconds: 1_000, maxAgeSeconds: 60 })).toEqual({ status: 'starting', head: 42, age: 0 })
    expect(decideHealth({ lifecycle: 'draining', head, nowSeconds: 5_000, maxAgeSeconds: 60 })).toEqual({ status: 'draining', head: 42, age: 4_000 })
  })

  it('an unknown head is never ok', () => {
    expect(decideHealth({ lifecycle: 'serving', head: undefined, nowSeconds: 1_000, maxAgeSeconds: 0 })).toEqual({ status: 'stale' })
  })

  it('a reader with a problem (its node silent, its datadir replaced) is stale whatever its head, and says why', () => {
    const reader = { lifecycle: 'serving', head, nowSeconds: 1_000, maxAgeSeconds: 0, lag: { blocks: 0, max: 2 } } as const
    expect(decideHealth(reader)).toEqual({ status: 'ok', head: 42, age: 0, lag: 0 })
    expect(decideHealth({ ...reader, problem: 'the node does not answer at http://127.0.0.1:8546: no reply within 2 s' })).toEqual({
      status: 'stale',
      head: 42,
      age: 0,
      lag: 0,
      reason: 'the node does not answer at http://127.0.0.1:8546: no reply within 2 s',
    })
  })

  it('200 only for ok, with the JSON body', () => {
    expect(healthReply({ status: 'ok', head: 1, age: 2 })).toEqual({ ok: true, body: '{"status":"ok","head":1,"age":2}' })
    for (const status of ['starting', 'draining', 'stale'] as const) expect(healthReply({ status }).ok).toBe(false)
  })

  it('the default bound: as given off dev mode; never stale with a block per transaction; two periods at least', () => {
    expect(defaultHealthMaxAge(undefined, 60)).toBe(60)
    expect(defaultHealthMaxAge({}, 60)).toBe(0)
    expect(defaultHealthMaxAge({ period: 0 }, 60)).toBe(0)
    expect(defaultHealthMaxAge({ period: 12 }, 60)).toBe(60)
    expect(defaultHealthMaxAge({ period: 45 }, 60)).toBe(90)
  })
})
