import { Halt } from '../evm/halts.js'
import { Op } from '../evm/opcodeNames.js'

// geth's view of the step a frame halts on. geth runs an opcode as: stack checks, constant gas, dynamic gas (its gas
// functions also refuse writes in a static frame and oversized init code), then the tracer's OnOpcode, then the
// opcode's own work. A halt before OnOpcode is reported on the step itself (its `error`, and the cost it was asked
// for); a halt in the opcode's work leaves the step as logged, its cost charged, no error. Sponge's interpreter halts
// at the same points but calls onStep before charging any gas, and skips it for the first two checks (see
// `haltsBeforeStep`); these rules turn what it shows into what geth prints.

/** Halts Sponge's interpreter raises before its onStep hook: the step is not seen by a tracer. */
export function haltsBeforeStep(halt: Halt | undefined): boolean {
  return halt === Halt.invalidOpcode || halt === Halt.stackUnderflow || halt === Halt.stackOverflow
}

/** Opcodes whose gas function refuses a write in a static frame (the others refuse it in their own work). */
const GAS_FUNCTION_WRITES = new Set<number>([Op.SSTORE, Op.SELFDESTRUCT, Op.CALL, Op.CREATE, Op.CREATE2])

/** Whether geth's struct log puts the frame's error on the halting step: the halt came before OnOpcode. */
export function errorOnStep(halt: Halt | undefined, op: number): boolean {
  switch (halt) {
    case Halt.outOfGas:
    case Halt.stackUnderflow:
    case Halt.stackOverflow:
    case Halt.maxInitCodeSize:
      return true
    case Halt.writeProtection:
      return GAS_FUNCTION_WRITES.has(op)
    default:
      return false
  }
}

/** geth's constant gas where it differs from Sponge's static part (EIP-2929's warm cost is constant in geth). */
const GETH_CONSTANT: Readonly<Record<number, number>> = {
  [Op.BALANCE]: 100,
  [Op.EXTCODESIZE]: 100,
  [Op.EXTCODECOPY]: 100,
  [Op.EXTCODEHASH]: 100,
  [Op.CALL]: 100,
  [Op.CALLCODE]: 100,
  [Op.DELEGATECALL]: 100,
  [Op.STATICCALL]: 100,
}

/**
 * The cost geth reports for a step that halted, from the gas it had and Sponge's static cost of its opcode. Out of
 * gas on the static part: that part. Out of gas on the dynamic part: geth prints what its gas function asked for,
 * which Sponge's interpreter does not keep; the gas the step had (all of it went) is printed instead. A halt in the
 * opcode's work (a bad jump, return data out of bounds) or in a gas function's check: the constant gas.
 */
export function haltedStepCost(op: number, gasBefore: number, staticGas: number, halt: Halt | undefined): number {
  const constant = GETH_CONSTANT[op] ?? staticGas
  if (halt === Halt.outOfGas) return gasBefore < constant ? constant : gasBefore
  if (halt === Halt.invalidOpcode) return 0
  return constant
}
