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

// Trie nodes are encoded straight into their bytes: a node's children are already encoded (an inline child) or
// hashed, so a node is one list header and a copy of each item, where a general RLP encoder walks nested arrays and
// concatenates at every level (a third of a block's state commit went there).

/**
 * How a parent holds a child node: its 32-byte hash, or — a node whose encoding is under 32 bytes — that encoding
 * itself (the child inline). The two are told apart by length.
 */
export type ChildRef = Uint8Array

const EMPTY_ITEM = 0x80

function headerLength(n: number): number {
  if (n < 56) return 1
  let bytes = 1
  for (let v = n; v > 255; v = Math.floor(v / 256)) bytes++
  return 1 + bytes
}

/** Writes an RLP string's or list's (`base` 0x80 or 0xc0) header for `n` bytes of content at `at`; returns the end. */
function writeHeader(out: Uint8Array, at: number, base: number, n: number): number {
  if (n < 56) {
    out[at] = base + n
    return at + 1
  }
  const len = headerLength(n) - 1
  out[at] = base + 55 + len
  for (let i = len, v = n; i > 0; i--, v = Math.floor(v / 256)) out[at + i] = v % 256
  return at + 1 + len
}

/** The length of `b` as an RLP string item. */
function stringLength(b: Uint8Array): number {
  return b.length === 1 && b[0]! < 0x80 ? 1 : headerLength(b.length) + b.length
}

function writeString(out: Uint8Array, at: number, b: Uint8Array): number {
  if (b.length === 1 && b[0]! < 0x80) {
    out[at] = b[0]!
    return at + 1
  }
  const start = writeHeader(out, at, 0x80, b.length)
  out.set(b, start)
  return start + b.length
}

const refLength = (ref: ChildRef): number => (ref.length === 32 ? 33 : ref.length)

function writeRef(out: Uint8Array, at: number, ref: ChildRef): number {
  if (ref.length !== 32) {
    out.set(ref, at)
    return at + ref.length
  }
  out[at] = 0xa0
  out.set(ref, at + 1)
  return at + 33
}

/** A leaf node: its hex-prefixed path and its value. */
export function encodeLeaf(path: Uint8Array, value: Uint8Array): Uint8Array {
  const payload = stringLength(path) + stringLength(value)
  const out = new Uint8Array(headerLength(payload) + payload)
  writeString(out, writeString(out, writeHeader(out, 0, 0xc0, payload), path), value)
  return out
}

/** An extension node: its hex-prefixed path and its child. */
export function encodeExtension(path: Uint8Array, child: ChildRef): Uint8Array {
  const payload = stringLength(path) + refLength(child)
  const out = new Uint8Array(headerLength(payload) + payload)
  writeRef(out, writeString(out, writeHeader(out, 0, 0xc0, payload), path), child)
  return out
}

/** A branch node: sixteen children (undefined where none) and a value (empty where none). */
export function encodeBranch(children: readonly (ChildRef | undefined)[], value: Uint8Array): Uint8Array {
  let payload = stringLength(value)
  for (let i = 0; i < 16; i++) {
    const c = children[i]
    payload += c === undefined ? 1 : refLength(c)
  }
  const out = new Uint8Array(headerLength(payload) + payload)
  let at = writeHeader(out, 0, 0xc0, payload)
  for (let i = 0; i < 16; i++) {
    const c = children[i]
    if (c === undefined) out[at++] = EMPTY_ITEM
    else at = writeRef(out, at, c)
  }
  writeString(out, at, value)
  return out
}
