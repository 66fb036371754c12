import { describe, expect, it } from 'vitest'
import { nextGasLimit } from './gasLimit.js'

describe('next gas limit', () => {
  it('moves toward a lower target by parent/1024 - 1', () => {
    expect(nextGasLimit(200_000_000n, 60_000_000n)).toBe(199_804_689n)
  })
  it('moves toward a higher target and stops at it', () => {
    expect(nextGasLimit(36_000_000n, 60_000_000n)).toBe(36_035_155n)
    expect(nextGasLimit(59_999_000n, 60_000_000n)).toBe(60_000_000n)
  })
  it('stays put at the target', () => {
    expect(nextGasLimit(60_000_000n, 60_000_000n)).toBe(60_000_000n)
  })
})
