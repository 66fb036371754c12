import { keccak256 } from '../../crypto/keccak.js'
import { recoverPublicKey } from '../../crypto/secp256k1.js'
import { unprefixedHexToBytes } from '../../util/hex.js'
import { isZeroRange, lessThan } from './bytes.js'
import { EMPTY, outOfGas, success } from './result.js'
import type { PrecompileResult } from './types.js'

export const ECRECOVER_GAS = 3000

const SECP256K1_N = unprefixedHexToBytes('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141')
// The input read as 128 bytes, zeros past its end; one buffer, as precompiles run one at a time on a thread.
const padded = new Uint8Array(128)

/**
 * 0x01: the address that signed a hash. Bad signatures are not failures: the gas is charged and the output is empty.
 * v must be exactly 27 or 28 (no EIP-155 form) and r, s in [1, n); s above n/2 is accepted (no EIP-2 rule here).
 */
export function ecrecover(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < ECRECOVER_GAS) return outOfGas(gasLimit)
  padded.fill(0)
  padded.set(input.length > 128 ? input.subarray(0, 128) : input)
  const v = padded[63]!
  if ((v !== 27 && v !== 28) || !isZeroRange(padded, 32, 63)) return success(ECRECOVER_GAS, EMPTY)
  if (!inScalarRange(64) || !inScalarRange(96)) return success(ECRECOVER_GAS, EMPTY)
  const publicKey = recoverPublicKey(padded.subarray(64, 128), v - 27, padded.subarray(0, 32))
  if (publicKey === undefined) return success(ECRECOVER_GAS, EMPTY)
  const output = new Uint8Array(32)
  output.set(keccak256(publicKey).subarray(12), 12)
  return success(ECRECOVER_GAS, output)
}

function inScalarRange(offset: number): boolean {
  return !isZeroRange(padded, offset, offset + 32) && lessThan(padded, offset, SECP256K1_N)
}
