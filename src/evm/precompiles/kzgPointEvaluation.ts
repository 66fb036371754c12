import { nativeKzg } from '../../crypto/kzg.js'
import { nativeCalls } from '../../crypto/nativeCalls.js'
import { sha256 } from '../../crypto/sha256.js'
import { unprefixedHexToBytes } from '../../util/hex.js'
import { failure, success } from './result.js'
import type { PrecompileResult } from './types.js'

export const POINT_EVALUATION_GAS = 50000

const VERSIONED_HASH_VERSION_KZG = 0x01

/** FIELD_ELEMENTS_PER_BLOB (4096) and BLS_MODULUS, each a 32-byte big-endian word. */
const OUTPUT = unprefixedHexToBytes(`${'1000'.padStart(64, '0')}73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001`)

/**
 * 0x0a (Cancun, EIP-4844): checks that the blob committed to by `commitment` (and named by `versioned_hash`) takes the
 * value y at z. Input: versioned_hash(32) z(32) y(32) commitment(48) proof(48). Any check failing is a failure.
 */
export function kzgPointEvaluation(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < POINT_EVALUATION_GAS || input.length !== 192) return failure(gasLimit)
  const commitment = input.subarray(96, 144)
  const hash = sha256(commitment)
  if (input[0] !== VERSIONED_HASH_VERSION_KZG) return failure(gasLimit)
  for (let i = 1; i < 32; i++) if (input[i] !== hash[i]) return failure(gasLimit)
  const kzg = nativeKzg()
  let valid: boolean
  nativeCalls.enter()
  try {
    // Throws on a z or y not below the field modulus, or a commitment or proof that is not a valid G1 point.
    valid = kzg.verifyKzgProof(commitment, input.subarray(32, 64), input.subarray(64, 96), input.subarray(144, 192))
  } catch {
    valid = false
  } finally {
    nativeCalls.leave()
  }
  return valid ? success(POINT_EVALUATION_GAS, OUTPUT.slice()) : failure(gasLimit)
}
