import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../testing/paths.js'
import { OPCODE_NAMES, Op } from './opcodeNames.js'

describe('opcode names', () => {
  it('names every byte as geth does, from the Op enum', () => {
    expect(OPCODE_NAMES[Op.ADD]).toBe('ADD')
    expect(OPCODE_NAMES[0x60]).toBe('PUSH1')
    expect(OPCODE_NAMES[0x7f]).toBe('PUSH32')
    expect(OPCODE_NAMES[0x8f]).toBe('DUP16')
    expect(OPCODE_NAMES[0x9f]).toBe('SWAP16')
    expect(OPCODE_NAMES[0xa4]).toBe('LOG4')
    expect(OPCODE_NAMES[0x44]).toBe('DIFFICULTY')
    expect(OPCODE_NAMES[0x0c]).toBe('opcode 0xc not defined')
    expect(OPCODE_NAMES).toHaveLength(256)
  })

  // V8 makes a jump table of a switch only when every case is a number literal; with property loads (`case Op.ADD:`
  // as tsc emits it under verbatimModuleSyntax) bench:evm ran 4–47% slower. scripts/inline-enums.cjs replaces them
  // at build; this reads the build.
  it("leaves the built interpreter's switch a number literal case for every opcode", () => {
    const built = readFileSync(join(REPO_ROOT, 'dist/evm/interpreter.js'), 'utf8')
    const labels = [...built.matchAll(/^\s*case ([^:]+):/gm)].map((m) => m[1]!)
    const notLiteral = labels.filter((l) => !/^\d+ \/\* Op\.\w+ \*\/$/.test(l))
    expect(notLiteral).toEqual([])
    const cased = new Set(labels.map((l) => Number.parseInt(l, 10)))
    const opcodes = Object.values(Op).filter((v): v is Op => typeof v === 'number' && v !== Op.INVALID)
    expect(opcodes.filter((op) => !cased.has(op)).map((op) => OPCODE_NAMES[op])).toEqual([])
  })
})
