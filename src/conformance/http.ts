/** POSTs a JSON-RPC body and returns the reply text. */
export async function postJson(url: string, body: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(60_000),
  })
  return res.text()
}
