import type { FuzzCase } from './evmCases.js'
import type { Mark, TxOutcome } from './evmOutcome.js'

// Where EthereumJS 10.1.3 departs from the specs (execution-specs, and geth with them), the specs win: a case that
// meets one of these is skipped knowingly, counted under its reason, never compared as a disagreement. Each entry
// says what EthereumJS does, what the specs say, and which event of Sponge's run (a Mark, set by evmSponge.ts's
// tracer) recognises it; a transaction whose outcomes differ without such an event is a disagreement.

interface Deviation {
  mark: Mark
  /** Printed in the run's summary. */
  reason: string
}

const DEVIATIONS: readonly Deviation[] = [
  {
    // @ethereumjs/evm's _executeCreate checks EIP-3541's 0xEF prefix on the init code's output whether it returned
    // or reverted: revert data starting with 0xEF becomes an exceptional halt that burns the frame's gas. EIP-3541
    // rejects new code starting with 0xEF; a reverted create deploys nothing (execution-specs,
    // src/ethereum/london/vm/interpreter.py, process_create_message: the prefix is checked under `if not evm.error`;
    // geth's initNewContract returns on the revert before its check), and the revert returns the gas left.
    mark: 'revertedInitCodeWithEf',
    reason: 'init code reverting with data that starts with 0xEF (EthereumJS applies EIP-3541 to it)',
  },
]

/** The reason to skip transaction `tx` of a case whose outcomes differ, or undefined: a real disagreement. */
export function knownDeviation(_c: FuzzCase, _tx: number, sponge: TxOutcome, _ethereumjs: TxOutcome): string | undefined {
  if (sponge.kind !== 'executed') return undefined
  return DEVIATIONS.find((d) => sponge.marks.has(d.mark))?.reason
}
