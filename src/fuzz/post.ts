import { postFrom } from '../testing/testNode.js'

// One HTTP POST of a JSON body from a chosen local address: the node names an HTTP client by its remote address, so
// a case plays several clients by connecting from 127.0.0.1, 127.0.0.2, … (all reach a node on 127.0.0.1).

export interface Posted {
  status: number
  text: string
}

export function post(url: string, body: string, localAddress = '127.0.0.1'): Promise<Posted> {
  return postFrom(url, localAddress, body)
}

/** A JSON-RPC call's reply, or the reason it is not one. */
export async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const r = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
  const j = JSON.parse(r.text) as { result?: T; error?: { code: number; message: string } }
  if (j.error !== undefined || !('result' in j)) throw new Error(`${method}: HTTP ${r.status} ${r.text.slice(0, 200)}`)
  return j.result as T
}
