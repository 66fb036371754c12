import type { CustomCrypto } from '@ethereumjs/common'
import { keccak256 } from './keccak.js'
import { ethereumjsKzg } from './kzg.js'
import { ecrecover } from './secp256k1.js'
import { sha256 } from './sha256.js'

let cached: CustomCrypto | undefined

/** The crypto every Common we build carries: the fastest correct implementation of each, as measured in bench/. */
export function customCrypto(): CustomCrypto {
  cached ??= { keccak256, sha256, ecrecover, kzg: ethereumjsKzg() }
  return cached
}
