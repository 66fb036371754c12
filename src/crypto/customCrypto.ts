import type { CustomCrypto } from '@ethereumjs/common'
import { keccak256 } from './keccak.js'
import { ethereumjsKzg } from './kzg.js'
import { ecrecover, ecsign } from './secp256k1.js'
import { sha256 } from './sha256.js'

let cached: CustomCrypto | undefined

/** The crypto every Common we build carries: the fastest correct implementation of each, as measured in bench/. */
export function customCrypto(): CustomCrypto {
  // ecsign's type is noble's sign, options and all; ours takes none (no extra entropy: RFC 6979 alone, as geth signs).
  cached ??= { keccak256, sha256, ecrecover, ecsign: ecsign as NonNullable<CustomCrypto['ecsign']>, kzg: ethereumjsKzg() }
  return cached
}
