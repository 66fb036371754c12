import { readFileSync } from 'node:fs'

// `node dist/bench/profileSummary.js <file.cpuprofile> [seconds 5] [top 40] [skip-end 0.7]`: the functions that took
// the samples of the last `seconds` before the profile's end (less `skip-end`, the shutdown), by self and by
// inclusive time. "(idle)" includes uWebSockets.js's native work and the kernel's socket calls: Node marks the
// event loop's poll phase idle, and uWS reads and writes sockets there.

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

const [file, window = '5', top = '40', skipEnd = '0.7'] = process.argv.slice(2)
if (file === undefined) {
  process.stderr.write('usage: node dist/bench/profileSummary.js <file.cpuprofile> [seconds] [top] [skip-end seconds]\n')
  process.exit(2)
}
const p = JSON.parse(readFileSync(file, 'utf8')) as Profile
const byId = new Map(p.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const name = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`
const end = p.endTime - Number(skipEnd) * 1e6
const start = end - Number(window) * 1e6
const self = new Map<string, number>()
const inclusive = new Map<string, number>()
let total = 0
let t = p.startTime
for (let i = 0; i < p.samples.length; i++) {
  t += p.timeDeltas[i]!
  if (t < start || t > end) continue
  total++
  let id: number | undefined = p.samples[i]!
  const leaf = name(byId.get(id)!)
  self.set(leaf, (self.get(leaf) ?? 0) + 1)
  // A recursive function counts once per sample.
  const seen = new Set<string>()
  while (id !== undefined) {
    const k = name(byId.get(id)!)
    if (!seen.has(k)) {
      seen.add(k)
      inclusive.set(k, (inclusive.get(k) ?? 0) + 1)
    }
    id = parent.get(id)
  }
}
const pct = (v: number) => ((100 * v) / total).toFixed(1).padStart(5)
const list = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top))
    .map(([k, v]) => `${pct(v)}  ${k}`)
    .join('\n')
process.stdout.write(`${total} samples\n--- self %\n${list(self)}\n--- inclusive %\n${list(inclusive)}\n`)
