import { describe, expect, it } from 'vitest'
import { loadUws } from './uws.js'

describe('uWebSockets.js', () => {
  it('loads the native binary, not the JS fallback', () => {
    expect(typeof loadUws().App).toBe('function')
  })

  it('refuses SSLApp: the build from vendor/uws has no TLS, and would serve plain text under that name', () => {
    expect(() => loadUws().SSLApp({})).toThrow(/no TLS/)
  })
})
