import { RLP } from '@ethereumjs/rlp'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { describe, expect, it } from 'vitest'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { keccak256 } from '../crypto/keccak.js'
import { concatBytes, hexToBytes } from '../util/hex.js'
import { validTx } from './txRules.js'

// A blob transaction's count of blobs, held to geth's pool rules (validateBlobTx) by the rules themselves: at least
// one, at most six a transaction from Osaka (EIP-7594). The sidecar's own checks come after; here, without one.

const spec = new ChainSpec(devGenesis())
const common = spec.commonAt(1n, 2n ** 40n)
const key = hexToBytes(devAccounts()[0]!.privateKey)

/** A signed blob transaction (no sidecar) carrying `n` versioned hashes. */
function blobTx(n: number): Uint8Array {
  const u = (x: bigint) => (x === 0n ? new Uint8Array() : hexToBytes(`0x${x.toString(16).padStart(2 * Math.ceil(x.toString(16).length / 2), '0')}`))
  const hashes = Array.from({ length: n }, (_, i) => concatBytes(Uint8Array.of(1), new Uint8Array(30), Uint8Array.of(i)))
  const to = hexToBytes(devAccounts()[1]!.address)
  const fields = [u(1337n), u(0n), u(1n), u(10n ** 10n), u(21_000n), to, u(0n), new Uint8Array(), [], u(10n ** 9n), hashes]
  const sig = secp256k1.sign(keccak256(concatBytes(Uint8Array.of(3), RLP.encode(fields))), key, { prehash: false, format: 'recovered' })
  return concatBytes(Uint8Array.of(3), RLP.encode([...fields, u(BigInt(sig[0]!)), sig.subarray(1, 33), sig.subarray(33, 65)]))
}

const rejection = (raw: Uint8Array): string | undefined => {
  try {
    validTx(raw, { common, gasLimit: 60_000_000n }, 'optional')
    return undefined
  } catch (e) {
    return (e as Error).message
  }
}

describe("a blob transaction's blobs", () => {
  it('are at least one ("blobless blob transaction") and at most six from Osaka', () => {
    expect(rejection(blobTx(0))).toBe('blobless blob transaction')
    expect(rejection(blobTx(1))).toBeUndefined()
    expect(rejection(blobTx(6))).toBeUndefined()
    expect(rejection(blobTx(7))).toBe('too many blobs in transaction: have 7, permitted 6')
  })
})
