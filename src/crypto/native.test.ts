import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { bytesToHex } from '../util/hex.js'
import { keccak256 } from './keccak.js'
import { nativeKzg } from './kzg.js'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { ecrecover, ecsign } from './secp256k1.js'
import { sha256 } from './sha256.js'

const require = createRequire(import.meta.url)

describe('native and WASM modules load and compute known answers', () => {
  it('loads lmdb natively', () => {
    const lmdb = require('lmdb') as { open: unknown }
    expect(typeof lmdb.open).toBe('function')
  })
  it('hashes keccak-256 and sha-256 correctly', () => {
    expect(bytesToHex(keccak256(new Uint8Array()))).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470')
    expect(bytesToHex(sha256(new TextEncoder().encode('abc')))).toBe('0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  })
  it('signs with the native secp256k1 binding as noble does: the same deterministic signature, recovery id first', () => {
    const key = keccak256(new TextEncoder().encode('a dev key'))
    for (const text of ['a', 'b', 'c']) {
      const digest = keccak256(new TextEncoder().encode(text))
      expect(bytesToHex(ecsign(digest, key))).toBe(bytesToHex(secp256k1.sign(digest, key, { prehash: false, format: 'recovered' })))
    }
  })
  it('recovers a signer with the native secp256k1 binding', () => {
    // EIP-155 example transaction signing hash and signature (v = 37, chain id 1).
    const msg = Buffer.from('daf5a779ae972f972197303d7b574746c7ef83eadac0f2791ad23db92e4c8e53', 'hex')
    const r = Buffer.from('28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276', 'hex')
    const s = Buffer.from('67cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83', 'hex')
    const pub = ecrecover(msg, 37n, r, s, 1n)
    expect(bytesToHex(keccak256(pub).subarray(12))).toBe('0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f')
  })
  it('loads c-kzg with its trusted setup and computes 128 cell proofs per blob', () => {
    const kzg = nativeKzg()
    const blob = new Uint8Array(131072)
    const commitment = kzg.blobToKzgCommitment(blob)
    expect(commitment.length).toBe(48)
    const [cells, proofs] = kzg.computeCellsAndKzgProofs(blob)
    expect(cells.length).toBe(128)
    expect(proofs.length).toBe(128)
  })
})
