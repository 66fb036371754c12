// 32-byte EVM words as hex text, the ways tests write them.

/** An unsigned value (a number, a bigint, or hex text such as an address) as the 64 hex digits of its word, no 0x. */
export function uint256Digits(v: number | bigint | string): string {
  return BigInt(v).toString(16).padStart(64, '0')
}

/** An unsigned value as a 0x-prefixed word: a storage slot or value, an ABI-encoded uint or address. */
export function uint256(v: number | bigint | string): `0x${string}` {
  return `0x${uint256Digits(v)}`
}

/** Hex digits (no 0x) left-aligned in a word, zeros after: a selector or a string's bytes as ABI puts them. */
export function leftAligned(digits: string): `0x${string}` {
  return `0x${digits.padEnd(64, '0')}`
}
