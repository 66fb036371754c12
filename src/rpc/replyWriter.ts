/**
 * A growable output buffer that replies are written into, reused from one reply to the next. Allocating a fresh
 * buffer per reply (and per store value copied into it) cost microseconds each on the read path; here a reply is
 * bytes appended to memory that already exists, and `view()` lends them to the transport, which copies them out
 * (uWebSockets.js does, before `end` returns).
 */
export class ReplyWriter {
  private buf: Buffer
  private len = 0

  constructor(private readonly initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes)
  }

  get length(): number {
    return this.len
  }

  reset(): void {
    this.len = 0
    // One huge reply (a full block of big transactions) should not pin its buffer for the life of the process.
    if (this.buf.length > 64 * this.initialBytes) this.buf = Buffer.allocUnsafe(this.initialBytes)
  }

  /** Drops what was written after `length` was `at`. */
  truncate(at: number): void {
    this.len = at
  }

  str(s: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    this.reserve(s.length * 3)
    // Envelope pieces are short ASCII: a loop beats the native encoder's call overhead there.
    if (s.length <= 64) {
      const buf = this.buf
      let at = this.len
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i)
        if (c >= 0x80) {
          this.len += buf.write(s, this.len)
          return
        }
        buf[at++] = c
      }
      this.len = at
      return
    }
    this.len += this.buf.write(s, this.len)
  }

  /** A non-negative safe integer's decimal digits (a request id, mostly). */
  uint(n: number): void {
    if (n < 10) {
      this.reserve(1)
      this.buf[this.len++] = 0x30 + n
      return
    }
    this.str(String(n))
  }

  /**
   * A string between quotes, when it needs no JSON escaping (hex, mostly); false, writing nothing, when it does.
   * Checked and copied in one pass: a reply's length moves only once the whole string has passed.
   */
  plainString(s: string): boolean {
    const n = s.length
    this.reserve(n + 2)
    const buf = this.buf
    let at = this.len
    buf[at++] = 0x22
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i)
      if (c < 0x20 || c >= 0x7f || c === 0x22 || c === 0x5c) return false
      buf[at++] = c
    }
    buf[at++] = 0x22
    this.len = at
    return true
  }

  bytes(b: Uint8Array): void {
    const n = b.length
    this.reserve(n)
    // The envelope's own pieces (its head, its closing brace) are a few bytes: a loop beats `set`'s call overhead.
    if (n <= 32) {
      const buf = this.buf
      let at = this.len
      for (let i = 0; i < n; i++) buf[at++] = b[i]!
      this.len = at
      return
    }
    this.buf.set(b, this.len)
    this.len += n
  }

  /** What was written since `from`, lent: valid until the next write. */
  view(from = 0): Buffer {
    return this.buf.subarray(from, this.len)
  }

  /** What was written since `from`, in a buffer of its own. */
  copy(from = 0): Buffer {
    return Buffer.from(this.view(from))
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n))
    this.buf.copy(next, 0, 0, this.len)
    this.buf = next
  }
}
