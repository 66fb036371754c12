import { encodeAbiParameters, keccak256 } from 'viem'
import { describe, expect, it } from 'vitest'
import { assemble } from '../testing/asm.js'
import { CALLER, evmCases, loop, mappingSlot, push } from './evmCases.js'
import { differences, ethereumjsEngine, type Outcome, spongeEngine } from './evmEngines.js'

// bench:evm's cases and engines: the programs do what they say (on EthereumJS, the reference), both engines' runs are
// undone so a second run repeats the first, and the comparison names what differs. No timings.

describe('bench:evm cases', () => {
  it('finds a mapping entry where Solidity puts it', () => {
    const expected = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [`0x${CALLER.toString(16)}`, 3n]))
    expect(mappingSlot(CALLER, 3)).toBe(BigInt(expected))
  })

  it('pushes at the width asked and loops n times', () => {
    expect(push(1, 2)).toBe('0x0001')
    expect(() => push(0x10000, 2)).toThrow(/does not fit/)
    // PUSH2 3; JUMPDEST; [body: PUSH0 POP]; PUSH1 1 SWAP1 SUB DUP1 PUSH2 3 JUMPI POP; STOP.
    expect(assemble(loop('l', 3, ['PUSH0', 'POP'], ['STOP']))).toBe('0x6100035b5f506001900380610003575000')
  })

  it('every case succeeds on EthereumJS with the output it expects, and a second run repeats the first', async () => {
    for (const c of evmCases()) {
      const e = await ethereumjsEngine(c)
      const first = await e.check()
      expect(first.status, c.name).toBe('success')
      if (c.expectedOutput !== undefined) expect(BigInt(first.output), c.name).toBe(c.expectedOutput)
      expect(differences(first, await e.check()), c.name).toEqual([])
    }
  })

  it('Sponge runs every case as EthereumJS does, twice', async () => {
    for (const c of evmCases()) {
      const s = spongeEngine(c)
      const e = await (await ethereumjsEngine(c)).check()
      expect(differences(await s.check(), e), c.name).toEqual([])
      expect(differences(await s.check(), e), c.name).toEqual([])
    }
  })

  it('names each field two outcomes differ in', () => {
    const a: Outcome = { status: 'success', gasUsed: 10, refund: 0, output: '0x01', logs: [], slots: ['0x1'] }
    expect(differences(a, { ...a })).toEqual([])
    expect(differences(a, { ...a, gasUsed: 11, slots: ['0x2'] })).toEqual(['gasUsed: 10 ≠ 11', 'slots: ["0x1"] ≠ ["0x2"]'])
  })
})
