import { createRequire } from 'node:module'
import type { KZG } from '@ethereumjs/util'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { nativeCalls } from './nativeCalls.js'

const require = createRequire(import.meta.url)
type CKzg = typeof import('c-kzg')
const ckzg = require('c-kzg') as CKzg

let loaded = false
/** c-kzg with the mainnet trusted setup it bundles; loaded once per thread. */
export function nativeKzg(): CKzg {
  if (!loaded) {
    ckzg.loadTrustedSetup(0)
    loaded = true
  }
  return ckzg
}

/** Whether this thread has loaded the trusted setup (tests: a thread served by the KZG thread never does). */
export function kzgSetupLoadedHere(): boolean {
  return loaded
}

const toHexList = (list: Uint8Array[]): string[] => list.map((b) => bytesToHex(b))
const fromHexList = (list: string[]): Uint8Array[] => list.map((h) => hexToBytes(h))

/**
 * EthereumJS's KZG interface (hex strings) over the native binding. The trusted setup (seconds to load) is loaded on
 * the first KZG operation, not when a Common is built: most threads never verify a blob.
 */
export function ethereumjsKzg(): KZG {
  // Each function looked up through `k` runs as a guarded native call (nativeCalls.ts).
  const k = new Proxy({} as CKzg, {
    get:
      (_t, name) =>
      (...args: unknown[]) => {
        nativeCalls.enter()
        try {
          return (nativeKzg()[name as keyof CKzg] as (...a: unknown[]) => unknown)(...args)
        } finally {
          nativeCalls.leave()
        }
      },
  })
  return {
    blobToKzgCommitment: (blob) => bytesToHex(k.blobToKzgCommitment(hexToBytes(blob))),
    computeBlobProof: (blob, commitment) => bytesToHex(k.computeBlobKzgProof(hexToBytes(blob), hexToBytes(commitment))),
    verifyProof: (commitment, z, y, proof) => k.verifyKzgProof(hexToBytes(commitment), hexToBytes(z), hexToBytes(y), hexToBytes(proof)),
    verifyBlobProofBatch: (blobs, commitments, proofs) =>
      k.verifyBlobKzgProofBatch(fromHexList(blobs), fromHexList(commitments), fromHexList(proofs)),
    computeCells: (blob) => toHexList(k.computeCells(hexToBytes(blob))),
    computeCellsAndProofs: (blob) => {
      const [cells, proofs] = k.computeCellsAndKzgProofs(hexToBytes(blob))
      return [toHexList(cells), toHexList(proofs)]
    },
    recoverCellsAndProofs: (indices, cells) => {
      const [c, p] = k.recoverCellsAndKzgProofs(indices, fromHexList(cells))
      return [toHexList(c), toHexList(p)]
    },
    verifyCellKzgProofBatch: (commitments, indices, cells, proofs) =>
      k.verifyCellKzgProofBatch(fromHexList(commitments), indices, fromHexList(cells), fromHexList(proofs)),
  }
}
