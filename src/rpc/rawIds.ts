/**
 * The raw JSON text of each request's `id` member, for ids that JSON.parse cannot give back as sent (numbers beyond
 * double precision, or written as `1.50`): JSON-RPC says an id is echoed unchanged. `batch` says whether the body
 * is an array of requests; the result has one entry per element (undefined where it has no id). Called only when
 * such an id was seen, so it may walk the text once more. The text is valid JSON (it parsed).
 */
export function rawIds(text: string, batch: boolean): (string | undefined)[] {
  const objectDepth = batch ? 2 : 1
  const out: (string | undefined)[] = []
  let depth = 0
  let elementStarts = !batch
  let key: string | undefined
  let expectKey = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c <= 0x20) continue
    // Each element of the batch (or the one request) gets its entry, whatever its type.
    if (elementStarts && depth === objectDepth - 1) {
      out.push(undefined)
      elementStarts = false
    }
    if (c === 0x22) {
      // A string: skip to its closing quote.
      const start = i
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++
      if (depth === objectDepth && expectKey) key = JSON.parse(text.slice(start, i + 1)) as string
      continue
    }
    if (c === 0x7b || c === 0x5b) {
      depth++
      if (batch && depth === 1) elementStarts = true
      expectKey = c === 0x7b
      continue
    }
    if (c === 0x7d || c === 0x5d) {
      depth--
      continue
    }
    if (c === 0x2c) {
      if (batch && depth === 1) elementStarts = true
      if (depth === objectDepth) expectKey = true
      continue
    }
    if (c === 0x3a && depth === objectDepth && key !== undefined) {
      expectKey = false
      if (key === 'id') {
        let end = i + 1
        while (end < text.length && !',}'.includes(text[end]!)) end++
        out[out.length - 1] = text.slice(i + 1, end).trim()
      }
      key = undefined
    }
  }
  return out
}
