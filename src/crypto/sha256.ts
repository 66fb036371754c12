import { digest } from '@chainsafe/as-sha256'

// @chainsafe/as-sha256 (WASM, SIMD where available) against node:crypto measured in bench/micro: sha-256.
export function sha256(data: Uint8Array): Uint8Array {
  return digest(data)
}
