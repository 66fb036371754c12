import { Fork } from '../../chain/evmFork.js'
import { blake2f } from './blake2f.js'
import { blsG1Add, blsG1Msm, blsG2Add, blsG2Msm, blsMapFp2ToG2, blsMapFpToG1, blsPairingCheck } from './bls12381.js'
import { bn254Add, bn254Mul, bn254Pairing } from './bn254.js'
import { ecrecover } from './ecrecover.js'
import { identity } from './identity.js'
import { kzgPointEvaluation } from './kzgPointEvaluation.js'
import { modexp } from './modexp.js'
import { p256Verify } from './p256verify.js'
import { ripemd160 } from './ripemd160.js'
import { sha256 } from './sha256.js'
import type { Precompile } from './types.js'

// Each fork's precompiles at 0x01-0x11 as a table indexed by address; P256VERIFY (0x100) alone sits past it. The
// prices that changed (MODEXP's EIP-2565 and EIP-7883, BN254's EIP-1108) are each precompile's own, by the fork it is
// called with.

const FRONTIER: readonly (Precompile | undefined)[] = [undefined, ecrecover, sha256, ripemd160, identity]
const BYZANTIUM = [...FRONTIER, modexp, bn254Add, bn254Mul, bn254Pairing]
const ISTANBUL = [...BYZANTIUM, blake2f]
const CANCUN = [...ISTANBUL, kzgPointEvaluation]
const PRAGUE = [...CANCUN, blsG1Add, blsG1Msm, blsG2Add, blsG2Msm, blsPairingCheck, blsMapFpToG1, blsMapFp2ToG2]

const TABLES: Record<Fork, readonly (Precompile | undefined)[]> = {
  [Fork.frontier]: FRONTIER,
  [Fork.homestead]: FRONTIER,
  [Fork.tangerineWhistle]: FRONTIER,
  [Fork.spuriousDragon]: FRONTIER,
  [Fork.byzantium]: BYZANTIUM,
  [Fork.constantinople]: BYZANTIUM,
  [Fork.petersburg]: BYZANTIUM,
  [Fork.istanbul]: ISTANBUL,
  [Fork.berlin]: ISTANBUL,
  [Fork.london]: ISTANBUL,
  [Fork.paris]: ISTANBUL,
  [Fork.shanghai]: ISTANBUL,
  [Fork.cancun]: CANCUN,
  [Fork.prague]: PRAGUE,
  [Fork.osaka]: PRAGUE,
}

const P256VERIFY_ADDRESS = 0x100n
const LOW_END = BigInt(PRAGUE.length) // the low range's first address past the last precompile

/** The precompile at `address` in `fork`, or undefined. Runs on every CALL: most addresses leave at the first test. */
export function precompileAt(address: bigint, fork: Fork): Precompile | undefined {
  if (address > P256VERIFY_ADDRESS) return undefined
  if (address < LOW_END) return TABLES[fork][Number(address)] // past a shorter table's end: undefined
  return address === P256VERIFY_ADDRESS && fork >= Fork.osaka ? p256Verify : undefined
}

const ADDRESSES = Object.fromEntries(
  Object.entries(TABLES).map(([fork, table]) => {
    const addresses = table.flatMap((p, i) => (p === undefined ? [] : [BigInt(i)]))
    if (Number(fork) >= Fork.osaka) addresses.push(P256VERIFY_ADDRESS)
    return [fork, Object.freeze(addresses)]
  }),
) as Record<Fork, readonly bigint[]>

/** Every precompile address of `fork`: warm from a transaction's start (EIP-2929). */
export function precompileAddresses(fork: Fork): readonly bigint[] {
  return ADDRESSES[fork]
}
