/**
 * JSON text written as bytes into one growing buffer: what the stored replies of a block are made with (a block's
 * transactions, receipts and logs, ~2,000 values for a full block), so that no intermediate string is built, joined,
 * flattened and encoded to UTF-8 again before LMDB copies it. Every value written here is ASCII (hex, fixed keys,
 * literals), so the bytes are the text's UTF-8 as they are.
 *
 * A value's bytes are found by offsets (mark, then slice once writing is done): the buffer moves when it grows.
 */
export class JsonWriter {
  private buf: Uint8Array
  private at = 0

  constructor(size = 1024) {
    this.buf = new Uint8Array(size)
  }

  /** Where the next byte goes. */
  mark(): number {
    return this.at
  }

  /** The bytes written between two marks, a view of the final buffer: take views only once writing is done. */
  slice(start: number, end: number): Uint8Array {
    return this.buf.subarray(start, end)
  }

  /** Everything written. */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.at)
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.at + n) size *= 2
    const grown = new Uint8Array(size)
    grown.set(this.buf.subarray(0, this.at))
    this.buf = grown
  }

  /** ASCII text as it is: punctuation, keys, literals (`,"gasUsed":`, `null`, `false`). */
  text(s: string): void {
    this.room(s.length)
    const buf = this.buf
    let at = this.at
    for (let i = 0; i < s.length; i++) buf[at++] = s.charCodeAt(i)
    this.at = at
  }

  /** Bytes already JSON (a log's text spliced into its receipt). */
  raw(b: Uint8Array): void {
    this.room(b.length)
    this.buf.set(b, this.at)
    this.at += b.length
  }

  /** `"0x…"`: the bytes as lowercase hex, DATA as JSON-RPC writes it. */
  hex(b: Uint8Array): void {
    this.room(4 + 2 * b.length)
    const buf = this.buf
    let at = this.at
    buf[at++] = QUOTE
    buf[at++] = ZERO
    buf[at++] = X
    for (let i = 0; i < b.length; i++) {
      const v = b[i]!
      buf[at++] = DIGITS[v >> 4]!
      buf[at++] = DIGITS[v & 15]!
    }
    buf[at++] = QUOTE
    this.at = at
  }

  /** `"0x…"`: a non-negative integer as a JSON-RPC QUANTITY (minimal hex, "0x0" for zero). */
  quantity(v: bigint | number): void {
    if (typeof v === 'bigint') {
      if (v > MAX_SAFE) {
        this.text(`"0x${v.toString(16)}"`)
        return
      }
      v = Number(v)
    }
    let digits = 1
    while (digits < 14 && v >= POW16[digits]!) digits++
    this.room(digits + 4)
    const buf = this.buf
    buf[this.at++] = QUOTE
    buf[this.at++] = ZERO
    buf[this.at++] = X
    // Below 2^53 the division is exact: no 32-bit operators, which would cut the value.
    for (let i = digits - 1; i >= 0; i--) {
      buf[this.at + i] = DIGITS[v % 16]!
      v = Math.floor(v / 16)
    }
    this.at += digits
    buf[this.at++] = QUOTE
  }

  /** `["0x…",…]`: log topics, access-list storage keys. */
  hexList(items: readonly Uint8Array[]): void {
    this.text('[')
    for (let i = 0; i < items.length; i++) {
      if (i > 0) this.text(',')
      this.hex(items[i]!)
    }
    this.text(']')
  }

  /** `"0x…"` or `null`. */
  hexOrNull(b: Uint8Array | undefined): void {
    if (b === undefined) this.text('null')
    else this.hex(b)
  }
}

const QUOTE = 0x22
const ZERO = 0x30
const X = 0x78
const DIGITS = new TextEncoder().encode('0123456789abcdef')
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
/** 16^k: where a quantity needs one more digit. */
const POW16 = Array.from({ length: 14 }, (_, k) => 16 ** k)

/** The text a writer function writes, for the callers that want a string (a pending transaction, a simulated block). */
export function jsonText(write: (w: JsonWriter) => void): string {
  const w = new JsonWriter(1024)
  write(w)
  const b = w.bytes()
  return Buffer.from(b.buffer, b.byteOffset, b.length).toString('latin1')
}
