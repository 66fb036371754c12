// Nibble paths (one half-byte per element) and their compact hex-prefix encoding (Yellow Paper, appendix C).

export function nibblesOf(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4
    out[2 * i + 1] = key[i]! & 15
  }
  return out
}

/** Compact (hex-prefix) encoding of `nibbles[from, to)`, with the leaf flag. */
export function hexPrefix(nibbles: Uint8Array, from: number, to: number, leaf: boolean): Uint8Array {
  const len = to - from
  const odd = len % 2
  const out = new Uint8Array(1 + (len >> 1))
  out[0] = ((leaf ? 2 : 0) + odd) << 4
  let j = from
  if (odd === 1) out[0] |= nibbles[j++]!
  for (let i = 1; i < out.length; i++, j += 2) out[i] = (nibbles[j]! << 4) | nibbles[j + 1]!
  return out
}

/** The nibbles of a hex-prefix encoded path, and whether it is a leaf's. */
export function fromHexPrefix(compact: Uint8Array): { path: Uint8Array; leaf: boolean } {
  const flag = compact[0]! >> 4
  const odd = flag & 1
  const path = new Uint8Array((compact.length - 1) * 2 + odd)
  let j = 0
  if (odd === 1) path[j++] = compact[0]! & 15
  for (let i = 1; i < compact.length; i++) {
    path[j++] = compact[i]! >> 4
    path[j++] = compact[i]! & 15
  }
  return { path, leaf: flag >= 2 }
}

/** Length of the common prefix of `a` and `b[from…]`. */
export function commonPrefix(a: Uint8Array, b: Uint8Array, from: number): number {
  const n = Math.min(a.length, b.length - from)
  let i = 0
  while (i < n && a[i] === b[from + i]) i++
  return i
}

export function concatNibbles(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}
