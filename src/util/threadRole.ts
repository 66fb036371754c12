import { writeFileSync } from 'node:fs'
import { getPriority, setPriority } from 'node:os'

// What the kernel is told of a thread's role: its name (what `top -H` and /proc show) and, for the public side,
// a higher nice. On Linux the nice value belongs to a thread, and setpriority(PRIO_PROCESS, 0, n) — os.setPriority
// with pid 0, which libuv passes through — sets the calling thread's alone; raising it needs no privilege. The
// serving threads and the public lanes' workers run PUBLIC_NICE_STEPS above the main thread (the Engine API, the
// writer) and the engine's workers, so that on a machine whose cores a public flood keeps busy the scheduler gives
// the engine's threads a core first (docs/design.md, "The engine's threads come first"). Elsewhere the call would
// renice the whole process, the engine with it: nothing is changed there.

/**
 * How far above the engine's threads the public side's run, in nice steps: a scheduler weight of ~1/3 of theirs
 * (each step ~1.25×). A waking engine thread takes a core from a public one at 5 steps as at 10 (measured alike:
 * docs/performance.md, 2026-11-27), and 5 leaves the public side ~1/4 of a core they contend for rather than ~1/10.
 */
export const PUBLIC_NICE_STEPS = 5

/** The highest nice Linux knows. */
const MAX_NICE = 19

const LINUX = process.platform === 'linux'

/** A thread name's most bytes (/proc/<tid>/comm, without its terminating NUL). */
const MAX_NAME_BYTES = 15

/**
 * The nice the public side runs at, read on the thread whose nice the engine's threads have (the main thread,
 * before it starts any): its own plus PUBLIC_NICE_STEPS, at most 19. Undefined where a thread cannot be reniced
 * alone (not Linux).
 */
export function publicNice(): number | undefined {
  return LINUX ? Math.min(MAX_NICE, getPriority(0) + PUBLIC_NICE_STEPS) : undefined
}

/**
 * Names the calling thread (cut to 15 bytes) and raises its nice to `nice` when given and higher than its own (a
 * thread started by a reniced one starts at its nice; lowering it would need privilege). Linux only; a failure
 * changes nothing, the thread runs as it would have.
 */
export function takeRole(name: string, nice?: number): void {
  if (!LINUX) return
  try {
    writeFileSync('/proc/thread-self/comm', Buffer.from(name).subarray(0, MAX_NAME_BYTES))
  } catch {
    // A kernel without /proc/thread-self (before 3.17): the thread keeps its inherited name.
  }
  if (nice === undefined) return
  try {
    if (getPriority(0) < nice) setPriority(0, nice)
  } catch {
    // Refused (a seccomp profile, say): the thread keeps the engine's priority, as before.
  }
}
