import { verifyKzgProof } from '../../crypto/kzgProofService.js'
import { sha256 } from '../../crypto/sha256.js'
import { unprefixedHexToBytes } from '../../util/hex.js'
import { compressedG1Problem } from './bls12381.js'
import { lessThan } from './bytes.js'
import { failure, outOfGas, success } from './result.js'
import type { PrecompileResult } from './types.js'

export const POINT_EVALUATION_GAS = 50000

const VERSIONED_HASH_VERSION_KZG = 0x01

/** FIELD_ELEMENTS_PER_BLOB (4096) and BLS_MODULUS, each a 32-byte big-endian word. */
const OUTPUT = unprefixedHexToBytes(`${'1000'.padStart(64, '0')}73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001`)
const BLS_MODULUS = OUTPUT.subarray(32)

// geth's words (core/vm/contracts.go); past the versioned hash, its KZG library's (go-eth-kzg, whose points gnark-crypto
// decodes) after "error verifying kzg proof: ".
const VERIFY_FAILED = 'error verifying kzg proof: '
const NON_CANONICAL_SCALAR = 'scalar is not canonical when interpreted as a big integer in big-endian'

/**
 * Why a proof that c-kzg did not verify fails, checked in go-eth-kzg's order (c-kzg answers only that it does not): the
 * claimed value y, the point z, the commitment, the proof, and only then the pairing.
 */
function verificationProblem(input: Uint8Array): string {
  if (!lessThan(input, 64, BLS_MODULUS) || !lessThan(input, 32, BLS_MODULUS)) return NON_CANONICAL_SCALAR
  return compressedG1Problem(input.subarray(96, 144)) ?? compressedG1Problem(input.subarray(144, 192)) ?? "can't verify opening proof"
}

/**
 * c-kzg's verdict, by the node's KZG thread when it has one. c-kzg refuses every input the checks of
 * `verificationProblem` refuse (the scalars and points as the KZG specification validates them), so a proof it verifies
 * passes them: they run only to name a failure (two points' checks in mcl cost ~0.7 ms, half a verification).
 */
function verifies(input: Uint8Array): boolean {
  return verifyKzgProof(input.subarray(96, 144), input.subarray(32, 64), input.subarray(64, 96), input.subarray(144, 192))
}

/**
 * 0x0a (Cancun, EIP-4844): checks that the blob committed to by `commitment` (and named by `versioned_hash`) takes the
 * value y at z. Input: versioned_hash(32) z(32) y(32) commitment(48) proof(48). Any check failing is a failure.
 */
export function kzgPointEvaluation(input: Uint8Array, gasLimit: number): PrecompileResult {
  if (gasLimit < POINT_EVALUATION_GAS) return outOfGas(gasLimit)
  if (input.length !== 192) return failure(gasLimit, 'invalid input length')
  const hash = sha256(input.subarray(96, 144))
  if (input[0] !== VERSIONED_HASH_VERSION_KZG) return failure(gasLimit, 'mismatched versioned hash')
  for (let i = 1; i < 32; i++) if (input[i] !== hash[i]) return failure(gasLimit, 'mismatched versioned hash')
  return verifies(input) ? success(POINT_EVALUATION_GAS, OUTPUT.slice()) : failure(gasLimit, VERIFY_FAILED + verificationProblem(input))
}
