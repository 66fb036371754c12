import type { MerkleStateManager } from '@ethereumjs/statemanager'
import type { Address } from '@ethereumjs/util'

/**
 * Runs a transaction from an account that may have code: geth never applies EIP-3607 to calls and simulations, EthereumJS
 * always does. The sender's code is set aside for the run and put back after (a call into the sender itself sees
 * no code meanwhile).
 */
export async function asEoa<T>(sm: MerkleStateManager, from: Address, run: () => Promise<T>): Promise<T> {
  const code = await sm.getCode(from)
  if (code.length === 0 || isDelegation(code)) return run()
  await sm.putCode(from, new Uint8Array())
  try {
    return await run()
  } finally {
    await sm.putCode(from, code)
  }
}

/** An EIP-7702 delegation designator, which EthereumJS already lets send. */
function isDelegation(code: Uint8Array): boolean {
  return code.length === 23 && code[0] === 0xef && code[1] === 0x01 && code[2] === 0x00
}
