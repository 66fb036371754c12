import { parentPort } from 'node:worker_threads'
import { nativeKzg } from './kzg.js'
import { checkSidecarProofs } from './kzgSidecar.js'
import type { KzgReply, KzgRequest } from './kzgThread.js'

// The KZG thread (kzgThread.ts): the trusted setup is loaded first thing, before any message is read, so requests
// sent meanwhile wait in the port's queue, not for a load of their own.
const start = performance.now()
nativeKzg()
parentPort?.postMessage({ ready: performance.now() - start } satisfies KzgReply)

parentPort?.on('message', (m: KzgRequest) => {
  // Leaving between calls: a thread stopped inside a c-kzg call aborts the process (nativeCalls.ts).
  if (m.stop) process.exit(0)
  parentPort?.postMessage({ id: m.id, check: checkSidecarProofs(m.sidecar, m.toCellProofs) } satisfies KzgReply)
})
