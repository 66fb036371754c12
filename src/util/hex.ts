// Hex codecs used at the JSON-RPC edge and in the store. Lookup tables keep them off the profile.

const HEX_CHARS = '0123456789abcdef'
/** Each byte's two lowercase hex digits. */
export const BYTE_TO_HEX: string[] = []
for (let i = 0; i < 256; i++) BYTE_TO_HEX.push(HEX_CHARS[i >> 4]! + HEX_CHARS[i & 15]!)

/** Each ASCII hex digit's value, -1 for other characters. */
export const HEX_VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < 10; i++) HEX_VALUE[48 + i] = i
for (let i = 0; i < 6; i++) {
  HEX_VALUE[97 + i] = 10 + i
  HEX_VALUE[65 + i] = 10 + i
}

export type Hex = `0x${string}`

export function bytesToHex(bytes: Uint8Array): Hex {
  // Node's native encoder wins past a few dozen bytes; the table loop avoids its call overhead for hashes and less.
  if (bytes.length > 48) return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`
  let out = '0x'
  for (let i = 0; i < bytes.length; i++) out += BYTE_TO_HEX[bytes[i]!]
  return out as Hex
}

/** Decodes 0x-prefixed hex of either case; throws on odd length or a bad digit. */
export function hexToBytes(hex: string): Uint8Array {
  if (!hex.startsWith('0x')) throw new Error(`hex string without 0x prefix: ${hex.slice(0, 20)}`)
  const len = hex.length - 2
  if (len % 2 !== 0) throw new Error('hex string of odd length')
  const out = new Uint8Array(len / 2)
  for (let i = 0, j = 2; i < out.length; i++, j += 2) {
    const hi = HEX_VALUE[hex.charCodeAt(j)] ?? -1
    const lo = HEX_VALUE[hex.charCodeAt(j + 1)] ?? -1
    if (hi < 0 || lo < 0) throw new Error('invalid hex digit')
    out[i] = (hi << 4) | lo
  }
  return out
}

/** Unprefixed-hex to bytes (constants written as digits alone, database keys kept as hex). */
export function unprefixedHexToBytes(hex: string): Uint8Array {
  return hexToBytes(`0x${hex}`)
}

/** JSON-RPC Quantity: minimal hex, "0x0" for zero. */
export function toQuantity(value: bigint | number): Hex {
  return `0x${value.toString(16)}` as Hex
}

export function quantityToBigInt(q: string): bigint {
  return BigInt(q)
}

export function bytesToBigInt(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n
  return BigInt(bytesToHex(bytes))
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let len = 0
  for (const p of parts) len += p.length
  const out = new Uint8Array(len)
  let off = 0
  for (const p of parts) {
    out.set(p, off)
    off += p.length
  }
  return out
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
