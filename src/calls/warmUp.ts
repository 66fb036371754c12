import { hexToBytes } from '../util/hex.js'
import type { EvmConfig } from '../vm/evmConfig.js'
import type { CallInput } from './callInput.js'
import { runCall } from './callRunner.js'
import { estimateGas } from './estimate.js'

// V8 optimizes the interpreter's big loop only after it has run a while: on a fresh thread the first calls ran
// several times slower than later ones, long enough for the serving thread's budget to send cheap calls to the lane.
// So each thread that runs calls first runs a synthetic one for a few tens of milliseconds, on the real path (the
// head's header and state, an override, the interpreter, a precompile, an estimate's search).

/**
 * A selector check, then 16 turns of: storage[i]++, keccak of memory, a STATICCALL of the identity precompile;
 * RETURN of a word. (src/testing/asm.ts wrote it from: 0x00 CALLDATALOAD 0xe0 SHR 0x70a08231 EQ POP 0x10 top:
 * DUP1 SLOAD 0x01 ADD DUP2 SSTORE DUP1 0x00 MSTORE 0x20 0x00 KECCAK256 0x20 MSTORE 0x20 0x40 0x40 0x00 0x04 GAS
 * STATICCALL POP 0x01 SWAP1 SUB DUP1 top JUMPI POP 0x20 0x20 RETURN.)
 */
const PROGRAM = hexToBytes(
  '0x60003560e01c6370a08231145060105b80546001018155806000526020600020602052602060406040600060045afa50600190038061000f575060206020f3',
)
const TARGET = hexToBytes('0x00000000000000000000000000000000005ab0de')

/** Runs calls at `blockHash` for `ms` milliseconds (at least a few): returns how many ran. */
export function warmUpCalls(config: EvmConfig, blockHash: Uint8Array, ms = 40): number {
  const input: CallInput = {
    blockHash,
    call: { to: TARGET, data: hexToBytes('0x70a08231') },
    stateOverrides: [{ address: TARGET, override: { code: PROGRAM } }],
    gasCap: 10_000_000n,
  }
  const until = performance.now() + ms
  let runs = 0
  while (runs < 5 || performance.now() < until) {
    if (runCall(config, input) === null) return runs
    if (runs % 8 === 0) estimateGas(config, input)
    runs++
  }
  return runs
}
