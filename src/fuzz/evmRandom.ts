// The EVM fuzzer's randomness: one seeded generator (mulberry32) per case, so a case is its seed and the same seed
// makes the same case on every machine.

export class Random {
  private a: number

  constructor(seed: number) {
    this.a = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0
    let t = this.a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n)
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from nothing')
    return items[this.int(items.length)]!
  }

  /** A word of `bytes` random bytes. */
  word(bytes = 32): bigint {
    let v = 0n
    for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(this.int(256))
    return v
  }

  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n)
    for (let i = 0; i < n; i++) out[i] = this.int(256)
    return out
  }

  /** An interesting 256-bit value: small numbers, edges, powers of two, or anything. */
  value(): bigint {
    switch (this.int(6)) {
      case 0:
        return BigInt(this.int(4))
      case 1:
        return BigInt(this.int(300))
      case 2:
        return this.pick([(1n << 255n) - 1n, 1n << 255n, (1n << 256n) - 1n, (1n << 256n) - 2n, 1n << 64n, (1n << 64n) - 1n])
      case 3:
        return 1n << BigInt(this.int(256))
      case 4:
        return this.word(this.int(8) + 1)
      default:
        return this.word()
    }
  }
}

/** The seed of case `index` of a run seeded `seed`: cases are independent, so one can be run alone (`--case`). */
export function caseSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0
  return (h ^ (h >>> 16)) >>> 0
}
