import { describe, expect, it } from 'vitest'
import { checkJwt, signJwt } from './jwt.js'

const secret = Buffer.alloc(32, 7)
const now = 1_700_000_000

describe('engine JWT', () => {
  it('accepts a fresh HS256 token', () => {
    expect(checkJwt(`Bearer ${signJwt(secret, now)}`, secret, now)).toBeUndefined()
    expect(checkJwt(`Bearer ${signJwt(secret, now - 60)}`, secret, now)).toBeUndefined()
  })
  it('refuses stale, future, foreign and malformed tokens', () => {
    expect(checkJwt(`Bearer ${signJwt(secret, now - 61)}`, secret, now)).toMatch(/iat/)
    expect(checkJwt(`Bearer ${signJwt(secret, now + 61)}`, secret, now)).toMatch(/iat/)
    expect(checkJwt(`Bearer ${signJwt(Buffer.alloc(32, 8), now)}`, secret, now)).toMatch(/signature/)
    expect(checkJwt('', secret, now)).toBe('missing or malformed bearer token')
    expect(checkJwt(`Basic ${signJwt(secret, now)}`, secret, now)).toBe('missing or malformed bearer token')
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(`{"iat":${now}}`).toString('base64url')}.`
    expect(checkJwt(`Bearer ${none}`, secret, now)).toMatch(/HS256/)
  })
})
