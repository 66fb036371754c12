import { createHash } from 'node:crypto'

/** An 8-byte payload id, deterministic in the parent, the attributes and the method version that asked. */
export function payloadIdOf(parentHash: string, attrs: Record<string, unknown>, version: number): string {
  const h = createHash('sha256')
  h.update(parentHash)
  h.update(JSON.stringify(attrs))
  h.update(String(version))
  return `0x${h.digest('hex').slice(0, 16)}`
}
