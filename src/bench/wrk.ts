import { execFileSync, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export interface WrkResult {
  requestsPerSec: number
  p50ms: number
  p90ms: number
  p99ms: number
  maxMs: number
  errors: number
  /** CPU seconds the generator used per wall second (1.0 = a whole core). */
  generatorCpu: number
  /** With a counting script: JSON-RPC results, -32005 refusals and error replies of any code (refusals too), per second, in replies of HTTP 200. */
  resultsPerSec?: number
  refusedPerSec?: number
  errorRepliesPerSec?: number
}

// Counts, in every reply of HTTP 200, the calls answered with a result, those refused with -32005 and those answered
// with any error (goodput under overload); other statuses are in wrk's own count of non-2xx replies. Plain finds, not
// gsub: a pattern match at every byte cost wrk ~4 ms of CPU per batch of 100 receipts (~100 kB), enough to make the
// generator the bottleneck.
const COUNTING = `local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) results = 0; refused = 0; failed = 0 end
local find = string.find
local function count(body, s)
  local n, i = 0, 1
  while true do
    local j = find(body, s, i, true)
    if j == nil then return n end
    n = n + 1
    i = j + #s
  end
end
function response(status, headers, body)
  if status ~= 200 then return end
  results = results + count(body, '"result":')
  if find(body, '"error":', 1, true) ~= nil then
    failed = failed + count(body, '"error":')
    refused = refused + count(body, '"code":-32005')
  end
end
function done(summary, latency, requests)
  local r, e, f = 0, 0, 0
  for _, t in ipairs(threads) do r = r + t:get("results"); e = e + t:get("refused"); f = f + t:get("failed") end
  io.write(string.format("COUNTED results=%d refused=%d failed=%d\\n", r, e, f))
end
`

/** wrk from Debian's packages: installed on first use when missing (root), else a clear error. */
export function ensureWrk(): string {
  try {
    return execFileSync('which', ['wrk']).toString().trim()
  } catch {
    if (process.getuid?.() !== 0) throw new Error('wrk is not installed: apt-get install wrk')
    process.stderr.write('installing wrk from Debian packages…\n')
    execFileSync('bash', ['-c', 'apt-get update -qq && apt-get install -y -qq wrk'], { stdio: 'inherit' })
    return execFileSync('which', ['wrk']).toString().trim()
  }
}

/**
 * A wrk Lua script that POSTs `bodies` round-robin, one per request; `count` adds the result/refusal counters. Each
 * request's text is formatted once, on its first use, and sent as kept: wrk.format at every request cost the generator
 * ~1 µs of CPU a request (a tenth of its share of the cores), taken from the server it measures.
 */
export function writeBodiesScript(dir: string, name: string, bodies: string[], count = false): string {
  const file = join(dir, `${name}.lua`)
  const list = bodies.map((b) => `[==[${b}]==]`).join(',\n')
  const script = [
    'wrk.method = "POST"',
    'wrk.headers["Content-Type"] = "application/json"',
    `local bodies = {\n${list}\n}`,
    'local requests = {}',
    'local i = 0',
    'request = function()',
    '  i = i + 1',
    '  if i > #bodies then i = 1 end',
    '  local r = requests[i]',
    '  if r == nil then r = wrk.format(nil, nil, nil, bodies[i]); requests[i] = r end',
    '  return r',
    'end',
    '',
  ].join('\n')
  writeFileSync(file, count ? script + COUNTING : script)
  return file
}

function childCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')
  // cutime and cstime: fields 16 and 17 of stat, 13 and 14 after the command name.
  return (Number(fields[13]) + Number(fields[14])) / 100
}

function toMs(v: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(v.trim())
  if (m === null) return Number.NaN
  const n = Number(m[1])
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60000
}

/** Runs wrk (one thread: the generator must stay light on a 2-core box) and parses its report. */
export async function runWrk(wrk: string, url: string, script: string, connections: number, seconds: number): Promise<WrkResult> {
  const before = childCpuSeconds()
  const started = performance.now()
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn(wrk, ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '10s', '-s', script, url])
    let text = ''
    p.stdout.on('data', (d: Buffer) => (text += d.toString()))
    p.stderr.on('data', (d: Buffer) => (text += d.toString()))
    p.on('error', reject)
    p.on('exit', () => resolve(text))
  })
  const wall = (performance.now() - started) / 1000
  const cpu = childCpuSeconds() - before
  const pct = (p: string) => toMs(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(out)?.[1] ?? 'NaN')
  const latencyLine = /^\s+Latency\s+(\S+)\s+(\S+)\s+(\S+)/m.exec(out)
  const errors =
    Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) +
    (/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/
      .exec(out)
      ?.slice(1)
      .reduce((a, b) => a + Number(b), 0) ?? 0)
  const counted = /COUNTED results=(\d+) refused=(\d+) failed=(\d+)/.exec(out)
  return {
    ...(counted === null
      ? {}
      : {
          resultsPerSec: Number(counted[1]) / seconds,
          refusedPerSec: Number(counted[2]) / seconds,
          errorRepliesPerSec: Number(counted[3]) / seconds,
        }),
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50ms: pct('50'),
    p90ms: pct('90'),
    p99ms: pct('99'),
    maxMs: latencyLine === null ? Number.NaN : toMs(latencyLine[3]!),
    errors,
    generatorCpu: cpu / wall,
  }
}
