/**
 * Values by a hex string as a client sent it (a transaction hash, an address, a storage slot): an open-addressing
 * table whose slot comes from the key's last eight characters, which are random in a hash or an address and differ
 * between small slot numbers. A Map hashes every character of each request's fresh key string (66 of a hash) and
 * follows its chain through the heap before it compares; here a lookup reads eight characters, then compares the keys
 * in one or two slots (bench:micro "kept replies": ~2× a Map's speed over a cache of receipts). Any string is a valid
 * key; only lookups are faster for these. There is no removal of one key: a cache made of it is cleared whole when its
 * bounds are reached (`clear`).
 */
export class HexKeyTable<V> {
  private keys: (string | undefined)[] = []
  private values: (V | undefined)[] = []
  /** log2 of the slot count; the table grows before it is half full, so every probe ends at an empty slot. */
  private bits = 0
  private count = 0

  constructor() {
    this.allocate(2)
  }

  get size(): number {
    return this.count
  }

  get(key: string): V | undefined {
    const keys = this.keys
    const mask = keys.length - 1
    let i = this.slotOf(key)
    for (;;) {
      const k = keys[i]
      if (k === undefined) return undefined
      if (k === key) return this.values[i]
      i = (i + 1) & mask
    }
  }

  /** Sets `key` to `value`, replacing what it had. */
  set(key: string, value: V): void {
    if ((this.count + 1) * 2 > this.keys.length) this.grow()
    const keys = this.keys
    const mask = keys.length - 1
    let i = this.slotOf(key)
    for (;;) {
      const k = keys[i]
      if (k === undefined) {
        keys[i] = key
        this.values[i] = value
        this.count++
        return
      }
      if (k === key) {
        this.values[i] = value
        return
      }
      i = (i + 1) & mask
    }
  }

  clear(): void {
    this.allocate(2)
  }

  /** Fibonacci hashing of the last eight characters: the top `bits` bits of their product with 2^32/φ. */
  private slotOf(key: string): number {
    const n = key.length
    let h = 0
    for (let i = n > 8 ? n - 8 : 0; i < n; i++) h = (Math.imul(h, 31) + key.charCodeAt(i)) | 0
    return Math.imul(h, 0x9e3779b1) >>> (32 - this.bits)
  }

  private allocate(bits: number): void {
    this.bits = bits
    this.keys = new Array<string | undefined>(1 << bits).fill(undefined)
    this.values = new Array<V | undefined>(1 << bits).fill(undefined)
    this.count = 0
  }

  private grow(): void {
    const keys = this.keys
    const values = this.values
    this.allocate(this.bits + 1)
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]
      if (k !== undefined) this.set(k, values[i] as V)
    }
  }
}
