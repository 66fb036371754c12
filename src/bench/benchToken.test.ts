import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain-JS build script, no declarations
import { compileBenchToken } from '../../scripts/compile-bench-token.mjs'
import { REPO_ROOT } from '../testing/paths.js'
import { BENCH_TOKEN_BALANCE_OF_SLOT, BENCH_TOKEN_RUNTIME } from './benchToken.js'

describe('BenchToken', () => {
  it('is the compiled source', () => {
    const source = readFileSync(join(REPO_ROOT, 'contracts', 'BenchToken.sol'), 'utf8')
    const { runtime, balanceOfSlot } = (compileBenchToken as (s: string) => { runtime: string; balanceOfSlot: number })(source)
    expect(`0x${runtime}`).toBe(BENCH_TOKEN_RUNTIME)
    expect(balanceOfSlot).toBe(BENCH_TOKEN_BALANCE_OF_SLOT)
  })
})
