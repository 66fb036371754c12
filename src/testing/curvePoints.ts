// Points on a curve outside its prime-order subgroup, for precompile tests that must refuse them.

/** The field operations the search needs (noble's Fp and Fp2 fields have them). */
export interface CurveField<T> {
  add(a: T, b: T): T
  mul(a: T, b: T): T
  sqr(a: T): T
  /** Throws when `a` has no square root. */
  sqrt(a: T): T
  eql(a: T, b: T): boolean
}

/**
 * The first point of y² = x³ + b, over x = xAt(1), xAt(2), …, that `inSubgroup` refuses: on a curve with a large
 * cofactor almost any point will do, so the search ends within a few steps.
 */
export function pointOutsideSubgroup<T>(F: CurveField<T>, b: T, xAt: (i: bigint) => T, inSubgroup: (x: T, y: T) => boolean): { x: T; y: T } {
  for (let i = 1n; ; i++) {
    const x = xAt(i)
    const rhs = F.add(F.mul(F.sqr(x), x), b)
    let y: T
    try {
      y = F.sqrt(rhs)
    } catch {
      continue
    }
    if (F.eql(F.sqr(y), rhs) && !inSubgroup(x, y)) return { x, y }
  }
}
