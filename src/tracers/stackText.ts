import { quantityHex } from './format.js'

// The struct logger's stack text, kept per call depth between steps.

/**
 * One call depth's stack as last printed: its items and their JSON text (`"0x1","0x2"`), with where each item's text
 * ends. A step shares most of its stack with the one before at its depth, so it formats only the items past the
 * first that changed and copies the text before it.
 */
export class StackText {
  values: bigint[] = []
  count = 0
  text = new Uint8Array(1024)
  ends: number[] = []

  /** The stack's text, brought up to `st[0, n)`; returns its length. */
  update(st: bigint[], n: number): number {
    const values = this.values
    const lim = Math.min(n, this.count)
    let k = 0
    while (k < lim && values[k] === st[k]) k++
    let at = k === 0 ? 0 : this.ends[k - 1]!
    for (let i = k; i < n; i++) {
      const v = st[i]!
      values[i] = v
      const hex = quantityHex(v)
      if (at + hex.length + 3 > this.text.length) this.grow(at + hex.length + 3)
      const b = this.text
      if (i > 0) b[at++] = 0x2c
      b[at++] = 0x22
      for (let j = 0; j < hex.length; j++) b[at++] = hex.charCodeAt(j)
      b[at++] = 0x22
      this.ends[i] = at
    }
    this.count = n
    return at
  }

  private grow(need: number): void {
    let cap = this.text.length * 2
    while (cap < need) cap *= 2
    const next = new Uint8Array(cap)
    next.set(this.text)
    this.text = next
  }
}
