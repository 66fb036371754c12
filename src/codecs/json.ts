import { bytesToHex, toQuantity } from '../util/hex.js'

/**
 * Builders for the JSON text we store and send. We write JSON by hand from fields that are already hex strings,
 * numbers or nested JSON: no value here needs escaping (hex, fixed keys), which JSON.stringify would re-check.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [k: string]: JsonValue }

export const q = (v: bigint | number): string => `"${toQuantity(v)}"`
export const h = (v: Uint8Array): string => `"${bytesToHex(v)}"`
export const addr = (v: Uint8Array | undefined): string => (v === undefined ? 'null' : h(v))
export const arr = (items: string[]): string => `[${items.join(',')}]`

/** An object from [key, already-encoded JSON value] pairs, skipping undefined values. */
export function obj(fields: [string, string | undefined][]): string {
  let out = '{'
  let first = true
  for (const [k, v] of fields) {
    if (v === undefined) continue
    out += `${first ? '' : ','}"${k}":${v}`
    first = false
  }
  return `${out}}`
}
