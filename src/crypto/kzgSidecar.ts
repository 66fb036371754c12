import { nativeKzg } from './kzg.js'
import { nativeCalls } from './nativeCalls.js'

/** EIP-7594: a blob extends to 128 cells, each with its own proof. */
export const CELLS_PER_BLOB = 128

/** A blob transaction's sidecar as it travels: blobs, their commitments, and their proofs by the version's rule. */
export interface SidecarProofs {
  /** 0: one blob proof per blob (Cancun, Prague); 1: each blob's 128 cell proofs (Osaka). */
  version: number
  blobs: Uint8Array[]
  commitments: Uint8Array[]
  proofs: Uint8Array[]
}

/** The outcome of a sidecar's KZG check. */
export type SidecarCheck = { ok: true } | { ok: false; why: string }

/**
 * The sidecar's proofs checked against its blobs and commitments (the counts are the caller's to have checked). A
 * refusal's `why` is geth's "KZG verification error" with the reason.
 */
export function checkSidecarProofs(s: SidecarProofs): SidecarCheck {
  const kzg = nativeKzg()
  nativeCalls.enter()
  try {
    if (s.version === 0) {
      if (!kzg.verifyBlobKzgProofBatch(s.blobs, s.commitments, s.proofs)) return { ok: false, why: 'KZG verification error: invalid blob proof' }
      return { ok: true }
    }
    const cells = s.blobs.flatMap((b) => kzg.computeCells(b))
    const commitments = s.commitments.flatMap((c) => Array<Uint8Array>(CELLS_PER_BLOB).fill(c))
    const indices = s.blobs.flatMap(() => Array.from({ length: CELLS_PER_BLOB }, (_, i) => i))
    if (!kzg.verifyCellKzgProofBatch(commitments, indices, cells, s.proofs)) return { ok: false, why: 'KZG verification error: invalid cell proof' }
    return { ok: true }
  } catch (e) {
    // c-kzg refuses bytes that are no field element or curve point by throwing.
    return { ok: false, why: `KZG verification error: ${e instanceof Error ? e.message : String(e)}` }
  } finally {
    nativeCalls.leave()
  }
}

/**
 * The blobs' cell proofs, 128 a blob in blob order: a version-0 sidecar's conversion (geth's ToV1, which computes
 * them without checking them again: made from blobs whose blob proofs held, they hold against their commitments).
 * About a third of a second a blob.
 */
export function blobCellProofs(blobs: Uint8Array[]): Uint8Array[] {
  const kzg = nativeKzg()
  nativeCalls.enter()
  try {
    return blobs.flatMap((b) => kzg.computeCellsAndKzgProofs(b)[1])
  } finally {
    nativeCalls.leave()
  }
}
