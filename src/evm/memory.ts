// A call frame's memory: one buffer per call depth, kept across calls and transactions (the interpreter hands each
// frame the buffer of its depth), grown by doubling, zeroed as the frame's size grows over stale bytes.

/**
 * The largest memory a frame can have: what one typed array holds (2^32 bytes). Memory past it costs about 2^45 gas,
 * more than any chain gives a transaction; a frame that could pay for it (a test's 2^60-gas transaction) is stopped
 * there as out of gas instead of failing to allocate.
 */
export const MAX_MEMORY_BYTES = 2 ** 32

export class Memory {
  buf = new Uint8Array(4096)
  /** The frame's size in bytes, a multiple of 32. */
  size = 0

  reset(): void {
    this.size = 0
  }

  /** Grows the frame's size to cover `end` (rounded up to a word); the caller has charged the gas. */
  grow(end: number): void {
    const newSize = Math.ceil(end / 32) * 32
    if (newSize <= this.size) return
    if (newSize > this.buf.length) {
      let cap = this.buf.length * 2
      while (cap < newSize) cap *= 2
      if (cap > MAX_MEMORY_BYTES) cap = MAX_MEMORY_BYTES
      const next = new Uint8Array(cap)
      next.set(this.buf.subarray(0, this.size))
      this.buf = next
    } else this.buf.fill(0, this.size, newSize)
    this.size = newSize
  }

  slice(offset: number, size: number): Uint8Array {
    return this.buf.slice(offset, offset + size)
  }
}
