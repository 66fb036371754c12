import { parentPort, workerData } from 'node:worker_threads'
import { nativeKzg } from './kzg.js'
import { serveKzgProofs } from './kzgProofService.js'
import { blobCellProofs, checkSidecarProofs } from './kzgSidecar.js'
import type { KzgReply, KzgRequest, KzgThreadData } from './kzgThread.js'

// The KZG thread (kzgThread.ts): the trusted setup is loaded first thing, before any message is read, so requests
// sent meanwhile wait in the port's queue, not for a load of their own; so do the other threads' proofs
// (kzgProofService.ts), which this thread answers once it has the setup.
const data = workerData as KzgThreadData | undefined
const start = performance.now()
nativeKzg()
parentPort?.postMessage({ ready: performance.now() - start } satisfies KzgReply)
const proofs = data?.proofService === undefined ? undefined : serveKzgProofs(data.proofService)
proofs?.start()

parentPort?.on('message', (m: KzgRequest) => {
  // Leaving between calls: a thread stopped inside a c-kzg call aborts the process (nativeCalls.ts).
  if (m.stop) {
    proofs?.stopped()
    process.exit(0)
  }
  if ('sidecar' in m) {
    parentPort?.postMessage({ id: m.id, check: checkSidecarProofs(m.sidecar) } satisfies KzgReply)
    return
  }
  try {
    parentPort?.postMessage({ id: m.id, cellProofs: blobCellProofs(m.cellProofsOf) } satisfies KzgReply)
  } catch (e) {
    // c-kzg throws on a blob that is no list of field elements (the blob proofs' check would have refused it first).
    parentPort?.postMessage({ id: m.id, failed: e instanceof Error ? e.message : String(e) } satisfies KzgReply)
  }
})
