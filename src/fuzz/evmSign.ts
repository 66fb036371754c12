import { createRequire } from 'node:module'

// Signatures for the fuzzer's transactions and authorizations: libsecp256k1's (the `secp256k1` package's native
// binding), deterministic (RFC 6979) as any signer is, and ~50 times quicker here than the pure-JS signing EthereumJS
// and noble do, which dominated a case's time.

const require = createRequire(import.meta.url)
interface Secp256k1 {
  ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array; recid: number }
}
const secp256k1 = require('secp256k1') as Secp256k1

export interface Signature {
  recovery: number
  r: Uint8Array
  s: Uint8Array
}

export function sign(hash: Uint8Array, key: Uint8Array): Signature {
  const { signature, recid } = secp256k1.ecdsaSign(hash, key)
  return { recovery: recid, r: signature.slice(0, 32), s: signature.slice(32) }
}
