// Bytes of JSON text that is ASCII (hex, digits, opcode names, geth's error words), in chunks: the struct logger
// writes its entries here as they finish instead of keeping an object per step. 500,000 retained objects cost more to
// collect than to make, and far more to clone across the worker hop than bytes; chunks are never copied to grow.

const CHUNK = 1 << 20

export class AsciiBuffer {
  private readonly full: Uint8Array[] = []
  private fullBytes = 0
  private chunk: Uint8Array
  private at = 0

  constructor(private readonly chunkSize = CHUNK) {
    this.chunk = new Uint8Array(chunkSize)
  }

  get length(): number {
    return this.fullBytes + this.at
  }

  /** Empties the buffer, keeping its current chunk. */
  clear(): void {
    if (this.full.length > 0) {
      this.full.length = 0
      this.fullBytes = 0
    }
    this.at = 0
  }

  /** Room for `n` more bytes in the current chunk. */
  private reserve(n: number): void {
    if (this.at + n <= this.chunk.length) return
    if (this.at > 0) {
      this.full.push(this.chunk.subarray(0, this.at))
      this.fullBytes += this.at
    }
    this.chunk = new Uint8Array(Math.max(this.chunkSize, n))
    this.at = 0
  }

  /** ASCII text (every char code below 128). */
  text(s: string): void {
    const n = s.length
    this.reserve(n)
    const b = this.chunk
    let at = this.at
    for (let i = 0; i < n; i++) b[at++] = s.charCodeAt(i)
    this.at = at
  }

  /** A JSON string of ASCII text with no quote or backslash in it (hex, names). */
  quoted(s: string): void {
    const n = s.length
    this.reserve(n + 2)
    const b = this.chunk
    let at = this.at
    b[at++] = 0x22
    for (let i = 0; i < n; i++) b[at++] = s.charCodeAt(i)
    b[at++] = 0x22
    this.at = at
  }

  /** Any text as a JSON string, escaped, UTF-8. */
  jsonString(s: string): void {
    this.bytes(Buffer.from(JSON.stringify(s), 'utf8'))
  }

  /** A non-negative integer below 2^53. */
  int(n: number): void {
    this.text(n < SMALL_INTS.length ? SMALL_INTS[n]! : String(n))
  }

  byte(c: number): void {
    this.reserve(1)
    this.chunk[this.at++] = c
  }

  bytes(src: Uint8Array, from = 0, to = src.length): void {
    const n = to - from
    this.reserve(n)
    copy(src, from, to, this.chunk, this.at)
    this.at += n
  }

  /** Bytes as lowercase hex digits (no quotes, no 0x). */
  hex(src: Uint8Array, from: number, to: number): void {
    this.reserve((to - from) * 2)
    const b = this.chunk
    let at = this.at
    for (let i = from; i < to; i++) {
      const v = src[i]!
      b[at++] = DIGITS[v >> 4]!
      b[at++] = DIGITS[v & 15]!
    }
    this.at = at
  }

  /** Everything another buffer holds. */
  append(other: AsciiBuffer): void {
    for (const part of other.full) this.bytes(part)
    const n = other.at
    this.reserve(n)
    copy(other.chunk, 0, n, this.chunk, this.at)
    this.at += n
  }

  /** The text in its chunks, as they are (no copy: a copy of a trace's tens of megabytes is not free). */
  parts(): Uint8Array[] {
    return this.at === 0 ? [...this.full] : [...this.full, this.chunk.subarray(0, this.at)]
  }
}

/** Short runs by hand: set() on a subarray costs more than a step's few hundred bytes. */
function copy(src: Uint8Array, from: number, to: number, dst: Uint8Array, at: number): void {
  if (to - from > 256) {
    dst.set(src.subarray(from, to), at)
    return
  }
  for (let i = from; i < to; i++) dst[at++] = src[i]!
}

const DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0))
const SMALL_INTS = Array.from({ length: 1024 }, (_, i) => String(i))
