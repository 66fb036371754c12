import { request } from 'node:http'

// One HTTP POST of a JSON body from a chosen local address: the node names an HTTP client by its remote address, so
// a case plays several clients by connecting from 127.0.0.1, 127.0.0.2, … (all reach a node on 127.0.0.1).

export interface Posted {
  status: number
  text: string
}

export function post(url: string, body: string, localAddress = '127.0.0.1'): Promise<Posted> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** A JSON-RPC call's reply, or the reason it is not one. */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const r = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
  const j = JSON.parse(r.text) as { result?: T; error?: { code: number; message: string } }
  if (j.error !== undefined || !('result' in j)) throw new Error(`${method}: HTTP ${r.status} ${r.text.slice(0, 200)}`)
  return j.result as T
}
