import { describe, expect, it } from 'vitest'
import { loadUws } from './uws.js'

describe('uWebSockets.js', () => {
  it('loads the native binary, not the JS fallback', () => {
    expect(typeof loadUws().App).toBe('function')
  })
})
