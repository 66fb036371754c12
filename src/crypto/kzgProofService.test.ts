import { describe, expect, it } from 'vitest'
import { kzgSetupLoadedHere, nativeKzg } from './kzg.js'
import { newKzgProofService, useKzgProofService, verifyKzgProof } from './kzgProofService.js'
import { KzgThread } from './kzgThread.js'

// The point-evaluation precompile ran c-kzg in whichever thread ran the EVM, and each such thread loaded the trusted
// setup on its first use: a serving thread's first eth_call to 0x0a answered after ~2.4 s, every connection it served
// held meanwhile, though the node's KZG thread had the setup. Now the KZG thread verifies for the others.

/** The zero polynomial's commitment and proofs are the point at infinity (compressed: 0xc0, then zeros). */
const infinity = () => {
  const p = new Uint8Array(48)
  p[0] = 0xc0
  return p
}
const word = (v: number) => {
  const w = new Uint8Array(32)
  w[31] = v
  return w
}

describe('KZG proofs verified by the KZG thread', () => {
  it("answers this thread's proofs without loading the setup here, and verifies here once the thread is gone", async () => {
    const service = newKzgProofService()
    useKzgProofService(service)
    const thread = new KzgThread(service)
    try {
      thread.start()
      // Asked while the thread loads its setup: the caller waits for it rather than load its own.
      const zeroAtFive = verifyKzgProof(infinity(), word(5), word(0), infinity())
      const oneAtFive = verifyKzgProof(infinity(), word(5), word(1), infinity())
      await thread.ready
      const blob = new Uint8Array(131072)
      for (let i = 0; i < 4096; i++) blob[i * 32 + 31] = i % 251
      expect(kzgSetupLoadedHere()).toBe(false)
      // The reference answers, from c-kzg in this thread (which loads the setup here from now on).
      const kzg = nativeKzg()
      const commitment = kzg.blobToKzgCommitment(blob)
      const [proof, y] = kzg.computeKzgProof(blob, word(7))
      useKzgProofService(undefined)
      const expected = [kzg.verifyKzgProof(commitment, word(7), y, proof), kzg.verifyKzgProof(commitment, word(7), word(3), proof)]
      expect(expected).toEqual([true, false])
      useKzgProofService(service)
      expect([zeroAtFive, oneAtFive]).toEqual([true, false])
      expect([verifyKzgProof(commitment, word(7), y, proof), verifyKzgProof(commitment, word(7), word(3), proof)]).toEqual(expected)
      // A point not on the curve: c-kzg refuses it, a failed verification either way.
      const bad = infinity()
      bad[0] = 0x80
      bad[47] = 1
      expect(verifyKzgProof(bad, word(7), y, proof)).toBe(false)
      await thread.close()
      // Gone: verified here.
      expect(verifyKzgProof(commitment, word(7), y, proof)).toBe(true)
    } finally {
      useKzgProofService(undefined)
      await thread.close()
    }
  })
})
