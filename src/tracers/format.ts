// The hex forms geth's tracers print: words (storage slots and values, topics) as 32 bytes, addresses as 20, stack
// items as minimal quantities. Lowercase, 0x-prefixed, as Go's hexutil writes them.

const ZEROS = '0'.repeat(64)

/** A 32-byte word: 0x and 64 digits. */
export function wordHex(v: bigint): string {
  const s = v.toString(16)
  return `0x${ZEROS.slice(s.length)}${s}`
}

/** A 20-byte address: 0x and 40 digits. */
export function addressHex(a: bigint): string {
  const s = a.toString(16)
  return `0x${ZEROS.slice(s.length + 24)}${s}`
}

/** Quantities below this are read from a table: stack items are mostly small. */
const SMALL_LIMIT = 1024
const SMALL_HEX = Array.from({ length: SMALL_LIMIT }, (_, i) => `0x${i.toString(16)}`)

/** A stack item as geth's uint256 Hex(): minimal digits, 0x0 for zero. */
export function quantityHex(v: bigint): string {
  return v < SMALL_LIMIT ? SMALL_HEX[Number(v)]! : `0x${v.toString(16)}`
}
