import { readFileSync, readdirSync } from 'node:fs'

// CPU time of processes and threads from /proc (Linux), for the benches' per-process CPU columns.

/** The fields of a /proc stat line after the command name (which may hold spaces and parentheses). */
function statFields(path: string): string[] | undefined {
  try {
    const text = readFileSync(path, 'utf8')
    return text.slice(text.lastIndexOf(') ') + 2).split(' ')
  } catch {
    return undefined
  }
}

/** User + system CPU seconds a process has used, all its threads (those ended too); 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  const f = statFields(`/proc/${pid}/stat`)
  return f === undefined ? 0 : (Number(f[11]) + Number(f[12])) / 100
}

/** User + system CPU seconds of one thread of a process (the main thread: tid = pid); 0 once it is gone. */
export function threadCpuSeconds(pid: number, tid: number): number {
  const f = statFields(`/proc/${pid}/task/${tid}/stat`)
  return f === undefined ? 0 : (Number(f[11]) + Number(f[12])) / 100
}

/**
 * User + system CPU seconds of a node's serving threads (named "serving thread": util/threadRole.ts), all of them
 * summed; the main thread's when it has none (`--http.threads 1`: the main thread serves). 0 once it is gone.
 */
export function servingCpuSeconds(pid: number): number {
  let tids: string[]
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return 0
  }
  let sum = 0
  let found = false
  for (const tid of tids) {
    let comm: string
    try {
      comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()
    } catch {
      continue
    }
    if (comm !== 'serving thread') continue
    found = true
    sum += threadCpuSeconds(pid, Number(tid))
  }
  return found ? sum : threadCpuSeconds(pid, pid)
}

/** The machine's CPU since boot, in seconds of all cores: busy (everything but idle and iowait) and softirq alone. */
export function machineCpuSeconds(): { busy: number; softirq: number } {
  // cpu  user nice system idle iowait irq softirq steal …, in clock ticks (USER_HZ, 100 on Linux).
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number)
  const [user, nice, system, , , irq, softirq, steal] = f as [number, number, number, number, number, number, number, number]
  return { busy: (user + nice + system + irq + softirq + steal) / 100, softirq: softirq / 100 }
}
