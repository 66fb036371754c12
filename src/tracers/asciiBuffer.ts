// A growing byte buffer for JSON text that is ASCII (hex, digits, opcode names, geth's error words): the struct
// logger writes its entries here as they finish instead of keeping an object per step. 500,000 retained objects cost
// more to collect than to make, and far more to clone across the worker hop than one buffer (measured: see the
// struct logger's report).

export class AsciiBuffer {
  bytes: Uint8Array
  length = 0

  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(capacity)
  }

  /** Room for `n` more bytes. */
  reserve(n: number): void {
    const need = this.length + n
    if (need <= this.bytes.length) return
    let cap = this.bytes.length * 2
    while (cap < need) cap *= 2
    const next = new Uint8Array(cap)
    next.set(this.bytes.subarray(0, this.length))
    this.bytes = next
  }

  /** ASCII text (every char code below 128). */
  text(s: string): void {
    const n = s.length
    this.reserve(n)
    const b = this.bytes
    let at = this.length
    for (let i = 0; i < n; i++) b[at++] = s.charCodeAt(i)
    this.length = at
  }

  /** A JSON string of ASCII text without quotes or backslashes in it (hex, names, geth's words). */
  quoted(s: string): void {
    const n = s.length
    this.reserve(n + 2)
    const b = this.bytes
    let at = this.length
    b[at++] = 0x22
    for (let i = 0; i < n; i++) b[at++] = s.charCodeAt(i)
    b[at++] = 0x22
    this.length = at
  }

  /** Any text as a JSON string, escaped and UTF-8 (an error that quotes arbitrary words). */
  jsonString(s: string): void {
    this.append(Buffer.from(JSON.stringify(s), 'utf8'))
  }

  /** A non-negative integer below 2^53. */
  int(n: number): void {
    this.text(String(n))
  }

  byte(c: number): void {
    this.reserve(1)
    this.bytes[this.length++] = c
  }

  append(src: Uint8Array): void {
    this.reserve(src.length)
    this.bytes.set(src, this.length)
    this.length += src.length
  }

  /** Bytes as lowercase hex digits (no quotes, no 0x). */
  hex(src: Uint8Array, from: number, to: number): void {
    this.reserve((to - from) * 2)
    const b = this.bytes
    let at = this.length
    for (let i = from; i < to; i++) {
      const v = src[i]!
      b[at++] = DIGITS[v >> 4]!
      b[at++] = DIGITS[v & 15]!
    }
    this.length = at
  }

  /** The text so far, as a copy of just its bytes. */
  copy(): Uint8Array {
    return this.bytes.slice(0, this.length)
  }
}

const DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0))
