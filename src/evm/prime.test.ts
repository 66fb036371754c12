import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { Status } from './frame.js'
import { Halt } from './halts.js'
import { Evm } from './interpreter.js'
import { OPCODE_NAMES } from './opcodeNames.js'
import { opTable } from './opcodes.js'
import { runPrimingPrograms } from './prime.js'

describe('the interpreter priming programs', () => {
  it('run every opcode of the latest fork and end frames every way, and succeed', () => {
    const ran = new Set<number>()
    const halts = new Set<Halt | undefined>()
    const statuses = new Set<Status>()
    const r = runPrimingPrograms(
      (fork, block, state) =>
        new Evm({
          fork,
          block,
          state,
          tracer: {
            onStep: (_f, op) => {
              ran.add(op)
            },
            onExit: (_m, res) => {
              halts.add(res.halt)
              statuses.add(res.status)
            },
          },
        }),
    )
    expect(r.status).toBe(Status.success)
    const table = opTable(Fork.osaka)
    const missing = OPCODE_NAMES.filter((_, op) => table.gas[op]! >= 0 && !ran.has(op))
    expect(missing).toEqual([])
    expect([...statuses].sort()).toEqual([Status.success, Status.revert, Status.error])
    for (const h of [Halt.outOfGas, Halt.invalidOpcode, Halt.stackUnderflow, Halt.invalidJump, Halt.writeProtection]) expect(halts).toContain(h)
  })
})
