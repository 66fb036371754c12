import { sha256 } from '../crypto/sha256.js'
import { concatBytes } from '../util/hex.js'

/** EIP-7685 requests hash: sha256 over the sha256 of each non-empty request (type byte ‖ data). */
export function requestsHash(requests: Uint8Array[]): Uint8Array {
  const parts = requests.filter((r) => r.length > 1).map((r) => sha256(r))
  return sha256(concatBytes(...parts))
}

/**
 * Engine API checks of executionRequests (prague.md): each element longer than one byte, ordered by request type
 * with no type repeated. Returns the reason when they fail.
 */
export function checkExecutionRequests(requests: Uint8Array[]): string | undefined {
  let previous = -1
  for (const [i, r] of requests.entries()) {
    if (r.length <= 1) return `execution request ${i} is empty (${r.length} bytes)`
    const type = r[0]!
    if (type <= previous) return `execution requests not ordered by strictly increasing type at index ${i}`
    previous = type
  }
  return undefined
}
