// 256-bit words as BigInts. Measured against 8×32-bit limbs in a Uint32Array (docs/design.md, "Sponge's EVM"): stack
// traffic (PUSH, DUP, SWAP, comparisons, ADD) is faster with BigInts, which move by reference; what costs is crossing
// to bytes (MLOAD, MSTORE, CALLDATALOAD, hashes). So words stay BigInts and the crossings have fast paths for the
// values that dominate: small numbers and zeros.

export const MAX_UINT256 = (1n << 256n) - 1n
export const SIGN_BIT = 1n << 255n
export const TWO_256 = 1n << 256n
const M64 = 0xffffffffffffffffn

/** The BigInts 0..1023, so PUSH1/PUSH2 of a small value and booleans allocate nothing. */
export const SMALL: readonly bigint[] = Array.from({ length: 1024 }, (_, i) => BigInt(i))

export function toSigned(v: bigint): bigint {
  return v >= SIGN_BIT ? v - TWO_256 : v
}

export function fromSigned(v: bigint): bigint {
  return v < 0n ? v + TWO_256 : v
}

/** Reads a 32-byte big-endian word; bytes past `end` (or the array) read as zero. */
export function readWord(bytes: Uint8Array, offset: number, end = bytes.length): bigint {
  if (offset + 32 <= end) {
    // The common case: the word lies inside the data.
    let z = 0
    for (let i = offset; i < offset + 24; i++) z |= bytes[i]!
    if (z === 0) {
      const o = offset + 24
      const hi = ((bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!) >>> 0
      // At most 53 bits: exact as a double.
      if (hi < 0x200000) {
        const lo = ((bytes[o + 4]! << 24) | (bytes[o + 5]! << 16) | (bytes[o + 6]! << 8) | bytes[o + 7]!) >>> 0
        return BigInt(hi * 4294967296 + lo)
      }
    }
    const dv = new DataView(bytes.buffer, bytes.byteOffset + offset, 32)
    return (dv.getBigUint64(0) << 192n) | (dv.getBigUint64(8) << 128n) | (dv.getBigUint64(16) << 64n) | dv.getBigUint64(24)
  }
  let v = 0n
  for (let i = 0; i < 32; i++) {
    const p = offset + i
    v = (v << 8n) | (p < end ? BigInt(bytes[p]!) : 0n)
  }
  return v
}

/** Writes `v` as a 32-byte big-endian word at `offset`. */
export function writeWord(bytes: Uint8Array, offset: number, v: bigint): void {
  if (v <= 0x1fffffffffffffn) {
    const n = Number(v)
    bytes.fill(0, offset, offset + 25)
    const hi = Math.floor(n / 4294967296)
    bytes[offset + 25] = hi >>> 16
    bytes[offset + 26] = hi >>> 8
    bytes[offset + 27] = hi
    bytes[offset + 28] = n >>> 24
    bytes[offset + 29] = n >>> 16
    bytes[offset + 30] = n >>> 8
    bytes[offset + 31] = n
    return
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset + offset, 32)
  dv.setBigUint64(0, v >> 192n)
  dv.setBigUint64(8, (v >> 128n) & M64)
  dv.setBigUint64(16, (v >> 64n) & M64)
  dv.setBigUint64(24, v & M64)
}

/** Big-endian bytes (any length up to 32) as a word. */
export function bytesToWord(bytes: Uint8Array): bigint {
  if (bytes.length === 32) return readWord(bytes, 0)
  let v = 0n
  for (let i = 0; i < bytes.length; i++) v = (v << 8n) | BigInt(bytes[i]!)
  return v
}

/** A word as 32 big-endian bytes. */
export function wordToBytes(v: bigint): Uint8Array {
  const out = new Uint8Array(32)
  writeWord(out, 0, v)
  return out
}

/** An address word (its low 20 bytes) as 20 bytes. */
export function addressToBytes(a: bigint): Uint8Array {
  const out = new Uint8Array(32)
  writeWord(out, 0, a)
  return out.subarray(12)
}

export const ADDRESS_MASK = (1n << 160n) - 1n

/** 2^0 … 2^256: bitLength compares against them, which allocates nothing. */
const POWERS_OF_TWO: readonly bigint[] = Array.from({ length: 257 }, (_, i) => 1n << BigInt(i))

/**
 * The number of bits a word needs (0 for zero): CLZ is 256 less it. A binary search over comparisons with powers of
 * two, ~7x faster than `v.toString(2).length`, whose 256-character string dominated CLZ-heavy blocks.
 */
export function bitLength(v: bigint): number {
  let lo = 0
  let hi = 256
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (v < POWERS_OF_TWO[mid]!) hi = mid
    else lo = mid + 1
  }
  return lo
}

/** The number of bytes a value needs (0 for zero): EXP's gas. */
export function byteLength(v: bigint): number {
  if (v === 0n) return 0
  return (v.toString(16).length + 1) >> 1
}
