import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { type RunningNode, startNode } from './node.js'
import { localNodeOptions } from '../testing/testNode.js'
import { tempDatadir } from '../testing/paths.js'

// What a web page can do to a node on localhost: post "simple" requests (text/plain, no preflight) and, through DNS
// rebinding, address it under its own host name. Both are refused, as geth refuses them.

let node: RunningNode
const options = (datadir: string, port = 0) =>
  localNodeOptions(datadir, { http: { host: '127.0.0.1', port, apis: ['eth'], corsOrigins: ['https://app.example'] } })
beforeAll(async () => {
  node = await startNode(new ChainSpec(devGenesis()), options(tempDatadir('access')))
})
afterAll(async () => {
  await node.close()
})

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function send(method: string, headers: Record<string, string>, body = '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: node.httpPort, method, path: '/', headers }, (res) => {
      let text = ''
      res.on('data', (d: Buffer) => (text += d.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(method === 'POST' ? body : undefined)
  })
}

describe('who may reach the HTTP endpoint', () => {
  it('answers JSON content types only (415 otherwise, and for none)', async () => {
    expect((await send('POST', { 'content-type': 'application/json' })).status).toBe(200)
    expect((await send('POST', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200)
    expect((await send('POST', { 'content-type': 'text/plain' })).status).toBe(415)
    expect((await send('POST', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415)
    expect((await send('POST', {})).status).toBe(415)
  })

  it('checks Host against --http.vhosts (localhost by default); IP literals always pass', async () => {
    const json = { 'content-type': 'application/json' }
    expect((await send('POST', { ...json, host: 'localhost:3000' })).status).toBe(200)
    expect((await send('POST', { ...json, host: '127.0.0.1:3000' })).status).toBe(200)
    expect((await send('POST', { ...json, host: '[::1]:3000' })).status).toBe(200)
    const rebound = await send('POST', { ...json, host: 'attacker.example:3000' })
    expect(rebound.status).toBe(403)
    expect(rebound.body).not.toContain('result')
  })

  it('sends CORS headers to configured origins only', async () => {
    const json = { 'content-type': 'application/json' }
    const allowed = await send('POST', { ...json, origin: 'https://app.example' })
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example')
    const other = await send('POST', { ...json, origin: 'https://evil.example' })
    expect(other.headers['access-control-allow-origin']).toBeUndefined()
    const preflight = await send('OPTIONS', {
      origin: 'https://app.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example')
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type')
    const refused = await send('OPTIONS', { origin: 'https://evil.example', 'access-control-request-method': 'POST' })
    expect(refused.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('a port in use is a start-up error naming it, not a second server sharing the port', async () => {
    const dir = tempDatadir('clash')
    await expect(startNode(new ChainSpec(devGenesis()), options(dir, node.httpPort))).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${node.httpPort}`))
    expect((await send('POST', { 'content-type': 'application/json' })).status).toBe(200)
  })
})
