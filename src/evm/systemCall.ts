import type { CallResult } from './frame.js'
import { CallKind } from './frame.js'
import type { Evm } from './interpreter.js'

// The block's system calls (EIP-4788 beacon root, EIP-2935 block hashes, EIP-7002 and EIP-7251 request queues): a
// call from the system address with 30M gas that pays nothing, counts toward nothing and leaves the system address as
// it was. The caller ends the transaction on the state after it (`evm.state.endTransaction()`).

export const SYSTEM_ADDRESS = 0xfffffffffffffffffffffffffffffffffffffffen
const SYSTEM_CALL_GAS = 30_000_000

export function systemCall(evm: Evm, to: bigint, data: Uint8Array): CallResult {
  evm.tx = { origin: SYSTEM_ADDRESS, gasPrice: 0n, blobHashes: [] }
  evm.state.warmAddress(to)
  return evm.run({
    kind: CallKind.call,
    caller: SYSTEM_ADDRESS,
    to,
    codeAddress: to,
    value: 0n,
    apparentValue: 0n,
    input: data,
    gas: SYSTEM_CALL_GAS,
    gasBase: 0n,
    isStatic: false,
    depth: 0,
  })
}
