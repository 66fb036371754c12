// Reading fixed-width big-endian fields out of precompile input without converting them to bigints first.

/** True when `input[start, end)` is all zero. */
export function isZeroRange(input: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (input[i] !== 0) return false
  return true
}

/** True when the big-endian number at `input[offset, offset + bound.length)` is below `bound` (same width). */
export function lessThan(input: Uint8Array, offset: number, bound: Uint8Array): boolean {
  for (let i = 0; i < bound.length; i++) {
    const a = input[offset + i]!
    const b = bound[i]!
    if (a !== b) return a < b
  }
  return false
}

/** `input` when it is at least `length` bytes, else a copy padded with zeros: precompiles read past the end as zeros. */
export function padRight(input: Uint8Array, length: number): Uint8Array {
  if (input.length >= length) return input
  const out = new Uint8Array(length)
  out.set(input)
  return out
}
