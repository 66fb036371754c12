import { createRequire } from 'node:module'
import { nativeCalls } from './nativeCalls.js'

// The native libsecp256k1 binding: sender recovery was ~1.5 ms a transaction with EthereumJS's pure-JS default.
const require = createRequire(import.meta.url)
interface NativeSecp256k1 {
  ecdsaRecover(sig: Uint8Array, recid: number, msg32: Uint8Array, compressed: boolean, output?: Uint8Array): Uint8Array
  ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array; recid: number }
}
const native = require('secp256k1/bindings') as NativeSecp256k1

/** Recovery id from a signature's v, per EIP-155 when a chain id is given. */
export function recoveryId(v: bigint, chainId?: bigint): number {
  if (v === 0n || v === 1n) return Number(v)
  if (chainId === undefined) return Number(v - 27n)
  return Number(v - (chainId * 2n + 35n))
}

function leftPad32(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 32) return bytes
  if (bytes.length > 32) throw new Error('signature component longer than 32 bytes')
  const out = new Uint8Array(32)
  out.set(bytes, 32 - bytes.length)
  return out
}

/** The 64-byte uncompressed public key (no 0x04 prefix), as EthereumJS's customCrypto.ecrecover returns it. */
export function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recid = recoveryId(v, chainId)
  if (recid !== 0 && recid !== 1) throw new Error('Invalid signature v value')
  const sig = new Uint8Array(64)
  sig.set(leftPad32(r), 0)
  sig.set(leftPad32(s), 32)
  nativeCalls.enter()
  try {
    return native.ecdsaRecover(sig, recid, msgHash, false, new Uint8Array(65)).subarray(1)
  } finally {
    nativeCalls.leave()
  }
}

/**
 * The 64-byte public key that signed `msgHash` with the compact signature r ‖ s and recovery id 0 or 1, or undefined
 * when no key did (r not an x on the curve, r or s out of range). A thread being stopped still throws (nativeCalls).
 */
export function recoverPublicKey(signature: Uint8Array, recid: number, msgHash: Uint8Array): Uint8Array | undefined {
  nativeCalls.enter()
  try {
    return native.ecdsaRecover(signature, recid, msgHash, false, new Uint8Array(65)).subarray(1)
  } catch {
    return undefined
  } finally {
    nativeCalls.leave()
  }
}

/**
 * A signature of the 32-byte digest `msgHash` in noble's 'recovered' format (recovery id ‖ r ‖ s), as EthereumJS's
 * transaction sign() asks its Common's customCrypto.ecsign: libsecp256k1's deterministic (RFC 6979) signing, ~1 ms
 * quicker a signature than noble's pure-JS one (the dev wallet signs every eth_sendTransaction).
 */
export function ecsign(msgHash: Uint8Array, privateKey: Uint8Array): Uint8Array {
  nativeCalls.enter()
  try {
    const { signature, recid } = native.ecdsaSign(msgHash, privateKey)
    const out = new Uint8Array(65)
    out[0] = recid
    out.set(signature, 1)
    return out
  } finally {
    nativeCalls.leave()
  }
}
