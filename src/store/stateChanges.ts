/**
 * A block's state changes as the flat state table stores them (store/flatState.ts): a list of entries, each an
 * account, a storage slot or a wipe of an account's whole storage, with the value after the block (or, in an undo
 * record, before it). Values are what the tries hold: an account's RLP, a slot's RLP-encoded value; no value means
 * absent. Entries apply in order.
 *
 * Encoding, per entry: kind (1 byte) ‖ key (20 bytes for an account or a wipe, 52 for a slot: address ‖ keccak256 of
 * the slot) ‖ value length (uint16 BE; 0 = absent, which no stored account or slot value is) ‖ value.
 */

export const ACCOUNT = 1
export const SLOT = 2
export const WIPE = 3
export type ChangeKind = typeof ACCOUNT | typeof SLOT | typeof WIPE

export interface StateChange {
  kind: ChangeKind
  key: Uint8Array
  /** undefined: absent (and for a wipe). */
  value: Uint8Array | undefined
}

const KEY_BYTES: Record<ChangeKind, number> = { [ACCOUNT]: 20, [SLOT]: 52, [WIPE]: 20 }

/** Builds an encoded change list entry by entry, into one growing buffer (a genesis lists millions). */
export class ChangeWriter {
  private buf = new Uint8Array(4096)
  private at = 0
  count = 0

  add(kind: ChangeKind, key: Uint8Array, value: Uint8Array | undefined): void {
    if (key.length !== KEY_BYTES[kind]) throw new RangeError(`a change of kind ${kind} has a ${KEY_BYTES[kind]}-byte key, not ${key.length}`)
    const length = value?.length ?? 0
    if (length > 0xffff) throw new RangeError('a state value longer than 65535 bytes')
    this.reserve(3 + key.length + length)
    const b = this.buf
    b[this.at++] = kind
    b.set(key, this.at)
    this.at += key.length
    b[this.at++] = length >>> 8
    b[this.at++] = length & 0xff
    if (value !== undefined) b.set(value, this.at)
    this.at += length
    this.count++
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.at)
  }

  private reserve(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.at + bytes))
    grown.set(this.buf.subarray(0, this.at))
    this.buf = grown
  }
}

/** The entries of an encoded change list, in order (keys and values are views into `encoded`). */
export function readChanges(encoded: Uint8Array): StateChange[] {
  const out: StateChange[] = []
  let at = 0
  while (at < encoded.length) {
    const kind = encoded[at] as ChangeKind
    const keyBytes = KEY_BYTES[kind]
    if (keyBytes === undefined || at + 3 + keyBytes > encoded.length) throw new Error(`corrupt state change list at byte ${at}`)
    const key = encoded.subarray(at + 1, at + 1 + keyBytes)
    at += 1 + keyBytes
    const length = (encoded[at]! << 8) | encoded[at + 1]!
    at += 2
    if (at + length > encoded.length) throw new Error(`corrupt state change list at byte ${at}`)
    out.push({ kind, key, value: length === 0 ? undefined : encoded.subarray(at, at + length) })
    at += length
  }
  return out
}
