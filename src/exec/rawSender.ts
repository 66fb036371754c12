import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { keccak256 } from '../crypto/keccak.js'
import { recoverPublicKey } from '../crypto/secp256k1.js'
import { bytesToBigInt } from '../util/hex.js'

// A transaction's sender public key from its raw bytes, without building EthereumJS's transaction object (which
// copies the chain's parameters for every transaction it makes, and encodes the signed message again): what a
// helper recovering a payload's senders alongside the engine does (senderRecovery.ts). Only the plain, well-formed
// case is answered; anything else (an unknown type, a field count or a v that does not fit, a high s, a key that
// does not recover) is undefined, and EthereumJS recovers that transaction itself and gives its verdict.

const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n
/** The fields each typed transaction carries before y-parity, r and s (EIP-2930, 1559, 4844, 7702). */
const UNSIGNED_FIELDS: Record<number, number> = { 1: 8, 2: 9, 3: 11, 4: 10 }
const LEGACY_UNSIGNED_FIELDS = 6

/** r ‖ s as 64 bytes, or undefined when either is empty, longer than 32 bytes or s is in the upper half (EIP-2). */
function compactSignature(r: Uint8Array, s: Uint8Array): Uint8Array | undefined {
  if (r.length === 0 || r.length > 32 || s.length === 0 || s.length > 32 || bytesToBigInt(s) > HALF_N) return undefined
  const sig = new Uint8Array(64)
  sig.set(r, 32 - r.length)
  sig.set(s, 64 - s.length)
  return sig
}

const isBytes = (x: unknown): x is Uint8Array => x instanceof Uint8Array

/** The 64-byte public key that signed `raw` on chain `chainId`, or undefined (see above). */
export function rawSenderKey(raw: Uint8Array, chainId: bigint): Uint8Array | undefined {
  if (raw.length === 0) return undefined
  try {
    if (raw[0]! >= 0xc0) return legacyKey(raw, chainId)
    const unsigned = UNSIGNED_FIELDS[raw[0]!]
    if (unsigned === undefined) return undefined
    const fields = RLP.decode(raw.subarray(1))
    if (!Array.isArray(fields) || fields.length !== unsigned + 3) return undefined
    const [parity, r, s] = fields.slice(unsigned)
    if (!isBytes(parity) || !isBytes(r) || !isBytes(s) || parity.length > 1 || (parity.length === 1 && parity[0] !== 1)) return undefined
    const sig = compactSignature(r, s)
    if (sig === undefined) return undefined
    const body = RLP.encode(fields.slice(0, unsigned))
    const message = new Uint8Array(1 + body.length)
    message[0] = raw[0]!
    message.set(body, 1)
    return recoverPublicKey(sig, parity.length, keccak256(message))
  } catch {
    return undefined
  }
}

/** A legacy transaction: EIP-155's v for `chainId` (its chain id in the signed message), or 27/28 unprotected. */
function legacyKey(raw: Uint8Array, chainId: bigint): Uint8Array | undefined {
  const fields = RLP.decode(raw)
  if (!Array.isArray(fields) || fields.length !== LEGACY_UNSIGNED_FIELDS + 3) return undefined
  const [vBytes, r, s] = fields.slice(LEGACY_UNSIGNED_FIELDS)
  if (!isBytes(vBytes) || !isBytes(r) || !isBytes(s) || vBytes.length > 8) return undefined
  const sig = compactSignature(r, s)
  if (sig === undefined) return undefined
  const v = bytesToBigInt(vBytes)
  const unsigned = fields.slice(0, LEGACY_UNSIGNED_FIELDS)
  let recid: number
  let body: Uint8Array
  if (v === 27n || v === 28n) {
    recid = Number(v - 27n)
    body = RLP.encode(unsigned)
  } else if (v === chainId * 2n + 35n || v === chainId * 2n + 36n) {
    recid = Number(v - (chainId * 2n + 35n))
    body = RLP.encode([...unsigned, bigIntToUnpaddedBytes(chainId), new Uint8Array(0), new Uint8Array(0)])
  } else {
    return undefined
  }
  return recoverPublicKey(sig, recid, keccak256(body))
}
