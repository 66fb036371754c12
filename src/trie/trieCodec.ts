/** The nibbles (half-bytes) of a trie key, high nibble first: the path a key takes from the root. */
export function nibblesOf(key: Uint8Array): Uint8Array {
  const out = new Uint8Array(key.length * 2)
  for (let i = 0; i < key.length; i++) {
    out[2 * i] = key[i]! >> 4
    out[2 * i + 1] = key[i]! & 15
  }
  return out
}

/** Compact (hex-prefix) encoding of nibbles[from, to), with the leaf flag: how leaf and extension nodes store paths. */
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

/** The nibbles and leaf flag of a hex-prefix encoded path. */
export function fromHexPrefix(encoded: Uint8Array): { nibbles: Uint8Array; leaf: boolean } {
  const flag = encoded[0]! >> 4
  const odd = flag & 1
  const nibbles = new Uint8Array((encoded.length - 1) * 2 + odd)
  let j = 0
  if (odd === 1) nibbles[j++] = encoded[0]! & 15
  for (let i = 1; i < encoded.length; i++) {
    nibbles[j++] = encoded[i]! >> 4
    nibbles[j++] = encoded[i]! & 15
  }
  return { nibbles, leaf: (flag & 2) !== 0 }
}
