import { createRequire } from 'node:module'

// hash-wasm's WASM keccak measured fastest here for the small inputs that dominate (bench/micro: keccak-256):
// ~450k/s at 32 B against ~120k/s for the native `keccak` binding (per-call N-API overhead) and ~77k/s for noble.
// Its one-algorithm build: the package's index carries every algorithm's WASM, ~4 MiB more in every thread
// (docs/performance.md, "Idle memory").
const { createKeccak } = createRequire(import.meta.url)('hash-wasm/dist/keccak.umd.min.js') as Pick<typeof import('hash-wasm'), 'createKeccak'>
// Top-level await: the WASM module is compiled once per thread before anything hashes.
const hasher = await createKeccak(256)

export function keccak256(data: Uint8Array): Uint8Array {
  hasher.init()
  hasher.update(data)
  return hasher.digest('binary')
}
