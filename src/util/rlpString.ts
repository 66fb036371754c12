// An RLP string read in place (trie nodes, state values, flat state entries): its payload's bounds land in module
// state, so a read on a hot path makes no object per item and copies nothing.

/** The payload of the last string `rlpStringAt` read: b[rlpStart, rlpEnd). */
export let rlpStart = 0
export let rlpEnd = 0

/**
 * Reads the RLP string at `at` of `b` into rlpStart/rlpEnd and returns where the next item starts. `what` names the
 * value in the errors for a list where a string was expected and for a string running past the end.
 */
export function rlpStringAt(b: Uint8Array, at: number, what: string): number {
  const p = b[at]!
  if (p < 0x80) {
    rlpStart = at
    rlpEnd = at + 1
  } else if (p <= 0xb7) {
    rlpStart = at + 1
    rlpEnd = rlpStart + p - 0x80
  } else if (p < 0xc0) {
    const n = p - 0xb7
    let len = 0
    for (let i = 1; i <= n; i++) len = len * 256 + b[at + i]!
    rlpStart = at + 1 + n
    rlpEnd = rlpStart + len
  } else throw new Error(`${what}: a list where a string was expected`)
  if (rlpEnd > b.length) throw new Error(`${what} truncated`)
  return rlpEnd
}
