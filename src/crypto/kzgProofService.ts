import { nativeKzg } from './kzg.js'
import { nativeCalls } from './nativeCalls.js'

// One KZG proof verified for any thread by the node's KZG thread (kzgThread.ts), synchronously. The point-evaluation
// precompile runs wherever the EVM does (an engine worker, a public lane's worker, a serving thread, the main thread
// in dev mode), and c-kzg needs its trusted setup in the thread that calls it: ~2.4 s of CPU to load, once per thread,
// during which that thread answers nothing (a serving thread's first eth_call to 0x0a held every connection it
// served for 2.4 s, though the node's KZG thread had the setup loaded). A node loads it once, in that thread; the
// others ask it through this shared buffer, one caller at a time, and block until it answers (the EVM is synchronous;
// a verification takes ~0.8 ms). A thread given no service (a process without one, as the state-test runner), or
// asking while the KZG thread is not running (`--no-kzg-preload` before its first blob transaction), verifies the
// proof itself, as every thread did before.

/** Int32 words: the callers' lock, the last request's and the last reply's sequence numbers, the result, liveness. */
const LOCK = 0
const ASKED = 1
const ANSWERED = 2
const VALID = 3
const ALIVE = 4
const WORDS = 8
/** commitment (48) ‖ z (32) ‖ y (32) ‖ proof (48), after the words. */
const INPUT = WORDS * 4
const INPUT_BYTES = 48 + 32 + 32 + 48

/** Atomics.waitAsync (ES2024; in Node since 16), which the project's ES2023 library does not declare. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(a: Int32Array, index: number, value: number): { async: false; value: string } | { async: true; value: Promise<string> }
  }
).waitAsync

/** How long a caller waits for the KZG thread (a start loads the setup first: ~2.5 s here) before verifying itself. */
const WAIT_BOUND_MS = 60_000
/** How long the KZG thread waits for a next request before it goes back to its event loop. */
const NEXT_REQUEST_MS = 2
/** Each wait's slice: between slices the caller sees whether the thread is still there. */
const WAIT_SLICE_MS = 500

/** The shared buffer of one node: made on the main thread, given to every thread at its start. */
export function newKzgProofService(): SharedArrayBuffer {
  return new SharedArrayBuffer(INPUT + INPUT_BYTES)
}

let words: Int32Array | undefined
let bytes: Uint8Array | undefined

/** This thread's proofs are verified through `service` (undefined: by this thread). */
export function useKzgProofService(service: SharedArrayBuffer | undefined): void {
  words = service === undefined ? undefined : new Int32Array(service, 0, WORDS)
  bytes = service === undefined ? undefined : new Uint8Array(service)
}

function verifyHere(commitment: Uint8Array, z: Uint8Array, y: Uint8Array, proof: Uint8Array): boolean {
  const kzg = nativeKzg()
  nativeCalls.enter()
  try {
    return kzg.verifyKzgProof(commitment, z, y, proof)
  } catch {
    return false
  } finally {
    nativeCalls.leave()
  }
}

/** Whether `proof` opens `commitment` at `z` to `y` (c-kzg's verify_kzg_proof; false for inputs it refuses). */
export function verifyKzgProof(commitment: Uint8Array, z: Uint8Array, y: Uint8Array, proof: Uint8Array): boolean {
  const w = words
  if (w === undefined || Atomics.load(w, ALIVE) !== 1) return verifyHere(commitment, z, y, proof)
  const deadline = Date.now() + WAIT_BOUND_MS
  const givenUp = () => Date.now() > deadline || Atomics.load(w, ALIVE) !== 1
  while (Atomics.compareExchange(w, LOCK, 0, 1) !== 0) {
    if (givenUp()) return verifyHere(commitment, z, y, proof)
    Atomics.wait(w, LOCK, 1, WAIT_SLICE_MS)
  }
  try {
    const b = bytes!
    b.set(commitment, INPUT)
    b.set(z, INPUT + 48)
    b.set(y, INPUT + 80)
    b.set(proof, INPUT + 112)
    const seq = (Atomics.load(w, ASKED) + 1) | 0
    Atomics.store(w, ASKED, seq)
    Atomics.notify(w, ASKED)
    for (;;) {
      const answered = Atomics.load(w, ANSWERED)
      if (answered === seq) return Atomics.load(w, VALID) === 1
      if (givenUp()) return verifyHere(commitment, z, y, proof)
      Atomics.wait(w, ANSWERED, answered, WAIT_SLICE_MS)
    }
  } finally {
    Atomics.store(w, LOCK, 0)
    Atomics.notify(w, LOCK, 1)
  }
}

/**
 * The KZG thread is starting (kzgThread.ts, as it creates the thread): callers from now on wait for the setup it is
 * about to load rather than load their own.
 */
export function kzgProofServiceStarting(service: SharedArrayBuffer): void {
  Atomics.store(new Int32Array(service, 0, WORDS), ALIVE, 1)
}

/**
 * The KZG thread's side. `start` (once the setup is loaded) answers requests between the thread's other messages;
 * `stopped` marks it gone (callers then verify themselves).
 */
export function serveKzgProofs(service: SharedArrayBuffer): { start(): void; stopped(): void } {
  const w = new Int32Array(service, 0, WORDS)
  const b = new Uint8Array(service)
  let running = true
  const serve = async () => {
    while (running) {
      const asked = Atomics.load(w, ASKED)
      if (asked === Atomics.load(w, ANSWERED)) {
        // A block calling the precompile asks again within microseconds: waited for here, the next request is
        // answered without a turn of the event loop (~0.1-0.2 ms each); past that, the thread's messages get theirs.
        if (Atomics.wait(w, ASKED, asked, NEXT_REQUEST_MS) === 'ok') continue
        const waiting = waitAsync(w, ASKED, asked)
        if (waiting.async) await waiting.value
        continue
      }
      const input = b.slice(INPUT, INPUT + INPUT_BYTES)
      // A caller that gave up (60 s) may have left, and the next one written its input meanwhile: read again.
      if (Atomics.load(w, ASKED) !== asked) continue
      const valid = verifyHere(input.subarray(0, 48), input.subarray(48, 80), input.subarray(80, 112), input.subarray(112, 160))
      Atomics.store(w, VALID, valid ? 1 : 0)
      Atomics.store(w, ANSWERED, asked)
      Atomics.notify(w, ANSWERED)
    }
  }
  return {
    start() {
      void serve()
    },
    stopped() {
      running = false
      kzgProofServiceGone(service)
    },
  }
}

/** The KZG thread is gone (stopped, or exited: the main thread sees that too): callers verify themselves. */
export function kzgProofServiceGone(service: SharedArrayBuffer): void {
  const w = new Int32Array(service, 0, WORDS)
  Atomics.store(w, ALIVE, 0)
  // Callers waiting see it at once rather than at their next slice.
  Atomics.notify(w, ANSWERED)
  Atomics.notify(w, LOCK)
}
