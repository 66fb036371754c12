import { readFileSync, readdirSync } from 'node:fs'

/** A thread of a process as /proc shows it. */
export interface ThreadSeen {
  tid: number
  name: string
  nice: number
}

/** The threads of process `pid` with their names and nice values, from /proc (Linux); none once it is gone. */
export function threadsSeen(pid: number): ThreadSeen[] {
  const dir = `/proc/${pid}/task`
  let tids: string[]
  try {
    tids = readdirSync(dir)
  } catch {
    return []
  }
  const out: ThreadSeen[] = []
  for (const tid of tids) {
    let stat: string
    try {
      stat = readFileSync(`${dir}/${tid}/stat`, 'utf8')
    } catch {
      continue // ended between the listing and the read
    }
    // The name is in parentheses and may hold both: the fields after the last ')' start with the state (field 3);
    // nice is field 19.
    const close = stat.lastIndexOf(')')
    const fields = stat.slice(close + 2).split(' ')
    out.push({ tid: Number(tid), name: stat.slice(stat.indexOf('(') + 1, close), nice: Number(fields[16]) })
  }
  return out
}
