import { afterEach, describe, expect, it } from 'vitest'
import { Fork } from '../../chain/evmFork.js'
import { hexToBytes } from '../../util/hex.js'
import { bn254Add, bn254Mul } from './bn254.js'
import { clearPrecompileCache, precompileCacheSize, runPrecompile, setPrecompileCache } from './cache.js'
import { identity } from './identity.js'
import { kzgPointEvaluation } from './kzgPointEvaluation.js'

/** The generator (1, 2) times 2: a valid BN254 multiplication, 6,000 gas from Istanbul, 40,000 before. */
const MUL = hexToBytes(`0x${'1'.padStart(64, '0')}${'2'.padStart(64, '0')}${'2'.padStart(64, '0')}`)

afterEach(() => {
  setPrecompileCache(true)
  clearPrecompileCache()
})

describe('the precompile cache', () => {
  it("answers a success again from the cache, whatever the gas given, as the precompile's own run does", () => {
    const first = runPrecompile(bn254Mul, MUL, 1_000_000, Fork.osaka)
    expect(first.ok).toBe(true)
    expect(precompileCacheSize().entries).toBe(1)
    for (const gas of [6000, 50_000, 1_000_000]) expect(runPrecompile(bn254Mul, MUL, gas, Fork.osaka)).toEqual(bn254Mul(MUL, gas, Fork.osaka))
    expect(precompileCacheSize().entries).toBe(1)
  })

  it('is out of gas where the precompile is, though its success is kept', () => {
    runPrecompile(bn254Mul, MUL, 1_000_000, Fork.osaka)
    const short = runPrecompile(bn254Mul, MUL, 5999, Fork.osaka)
    expect(short).toEqual({ ok: false, gasUsed: 5999, output: new Uint8Array(0), error: 'out of gas' })
  })

  it('keeps no failure: given too little gas first, the same input succeeds with enough', () => {
    expect(runPrecompile(bn254Mul, MUL, 100, Fork.osaka).ok).toBe(false)
    expect(precompileCacheSize().entries).toBe(0)
    expect(runPrecompile(bn254Mul, MUL, 6000, Fork.osaka)).toEqual(bn254Mul(MUL, 6000, Fork.osaka))
    const badProof = new Uint8Array(192)
    expect(runPrecompile(kzgPointEvaluation, badProof, 60_000, Fork.osaka).ok).toBe(false)
    expect(precompileCacheSize().entries).toBe(1)
  })

  it("keeps each fork's result apart (EIP-1108 repriced BN254 at Istanbul)", () => {
    expect(runPrecompile(bn254Mul, MUL, 1_000_000, Fork.byzantium).gasUsed).toBe(40_000)
    expect(runPrecompile(bn254Mul, MUL, 1_000_000, Fork.istanbul).gasUsed).toBe(6000)
    expect(runPrecompile(bn254Mul, MUL, 1_000_000, Fork.byzantium).gasUsed).toBe(40_000)
    expect(precompileCacheSize().entries).toBe(2)
  })

  it("hands out a copy: a caller's writes to an output do not reach the next answer", () => {
    const expected = bn254Mul(MUL, 6000, Fork.osaka).output
    runPrecompile(bn254Mul, MUL, 6000, Fork.osaka).output.fill(7)
    runPrecompile(bn254Mul, MUL, 6000, Fork.osaka).output.fill(9)
    expect(runPrecompile(bn254Mul, MUL, 6000, Fork.osaka).output).toEqual(expected)
  })

  it('keeps nothing of the cheap precompiles, and nothing when turned off', () => {
    runPrecompile(identity, MUL, 1000, Fork.osaka)
    runPrecompile(bn254Add, MUL, 1000, Fork.osaka)
    expect(precompileCacheSize().entries).toBe(0)
    setPrecompileCache(false)
    expect(runPrecompile(bn254Mul, MUL, 6000, Fork.osaka)).toEqual(bn254Mul(MUL, 6000, Fork.osaka))
    expect(precompileCacheSize().entries).toBe(0)
  })

  it('stays within its bound of entries, the oldest leaving first', () => {
    // Past its 96 bytes the input is ignored, so each tail is a distinct key (the point times 2 each time).
    const input = (i: number) => {
      const b = new Uint8Array(100)
      b.set(MUL)
      new DataView(b.buffer).setUint32(96, i)
      return b
    }
    for (let i = 0; i < 9000; i++) runPrecompile(bn254Mul, input(i), 6000, Fork.osaka)
    expect(precompileCacheSize().entries).toBe(8192)
    const before = precompileCacheSize().bytes
    runPrecompile(bn254Mul, input(8999), 6000, Fork.osaka) // the newest: still kept, nothing added
    expect(precompileCacheSize().bytes).toBe(before)
    runPrecompile(bn254Mul, input(0), 6000, Fork.osaka) // the oldest: gone, kept again in place of the next oldest
    expect(precompileCacheSize()).toEqual({ entries: 8192, bytes: before })
  })
})
