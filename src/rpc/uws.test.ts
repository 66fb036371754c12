import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TemplatedApp } from 'uWebSockets.js'
import { closeApp, loadUws } from './uws.js'
import { listenOnFreePort } from '../testing/uwsApp.js'

describe('uWebSockets.js', () => {
  it('loads the native binary, not the JS fallback', () => {
    expect(typeof loadUws().App).toBe('function')
  })

  it('refuses SSLApp: the build from vendor/uws has no TLS, and would serve plain text under that name', () => {
    expect(() => loadUws().SSLApp({})).toThrow(/no TLS/)
  })
})

// Sponge's view-data patch reads a reply's bytes from its buffer's data pointer and the view's offset: every kind of
// binary reply must arrive as the bytes it views.
describe('a binary reply sent as', () => {
  const whole = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz'.repeat(200))
  const shared = new SharedArrayBuffer(16)
  new Uint8Array(shared).set(Buffer.from('shared bytes 16!'))
  const replies: Record<string, { body: () => Uint8Array | ArrayBuffer | SharedArrayBuffer; expected: string }> = {
    'a view at an offset': { body: () => whole.subarray(1000, 2500), expected: whole.subarray(1000, 2500).toString() },
    'a small typed array on the V8 heap': { body: () => new Uint8Array([104, 105]), expected: 'hi' },
    'a typed array of another element size': { body: () => new Uint16Array([0x6968, 0x2121]), expected: 'hi!!' },
    'an ArrayBuffer': { body: () => whole.buffer.slice(whole.byteOffset + 10, whole.byteOffset + 20), expected: whole.subarray(10, 20).toString() },
    'a SharedArrayBuffer': { body: () => shared, expected: 'shared bytes 16!' },
  }
  let app: TemplatedApp
  let port = 0
  beforeAll(async () => {
    ;({ app, port } = await listenOnFreePort((a) =>
      a.get('/:kind', (res, req) => {
        res.end(replies[decodeURIComponent(req.getParameter(0))]!.body())
      }),
    ))
  })
  afterAll(() => closeApp(app))

  it.each(Object.keys(replies))('%s arrives as the bytes it holds', async (kind) => {
    const reply = await fetch(`http://127.0.0.1:${port}/${encodeURIComponent(kind)}`)
    expect(await reply.text()).toBe(replies[kind]!.expected)
  })
})
