// A worker thread may be stopped (worker.terminate) by its lane's watchdog. The native bindings built with C++
// exceptions (secp256k1, c-kzg) abort the whole process when their thread is stopped inside one of their calls:
// node-addon-api cannot hand the error to a terminating thread and throws it out of the call. So every call into them
// runs between enter() and leave(), which the watchdog sees and waits for (workers/deadlines.ts). Threads that are
// never stopped (the serving thread, the engine lane) keep the default, which does nothing. A thread is not stopped
// while it loads its modules either: a binding's start-up (secp256k1's seen; lmdb's too, Node's own module linking)
// or a thread's first LMDB reads aborts the process the same way, so a lane's close() waits until each of its threads
// has started, which a worker says once its warm-up has read the store (workers/pool.ts, workers/worker.ts).

export interface NativeCallGuard {
  /** About to call into a native binding; throws when the thread is being stopped. */
  enter(): void
  leave(): void
}

const unguarded: NativeCallGuard = { enter: () => {}, leave: () => {} }

export let nativeCalls: NativeCallGuard = unguarded

export function guardNativeCalls(guard: NativeCallGuard): void {
  nativeCalls = guard
}
