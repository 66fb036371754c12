import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseFlags } from '../cli/args.js'
import { devAccounts } from '../chain/dev.js'
import { spawnNode } from '../testing/spawnNode.js'

// `node dist/bench/idleMemory.js [--runs 3] [--settle 10] [--cli <another build's dist/cli/main.js>]`: a dev node
// (`sponge node --chain dev`, as `npm start`, on a fresh datadir and free ports) started `--runs` times; each time its
// VmRSS (and the anonymous and file-backed parts) read from /proc three times, 2 s apart, from `--settle` seconds
// after it answered eth_blockNumber; then the time of its first public-lane call (eth_getProof) and of a second.

const args = parseFlags(process.argv.slice(2), { runs: 'string', settle: 'string', cli: 'string' })
const runs = Number(args.flags.get('runs') ?? 3)
const settleMs = Number(args.flags.get('settle') ?? 10) * 1000
const cli = args.flags.get('cli')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function memory(pid: number): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const mib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024
  return { rss: mib('VmRSS'), anon: mib('RssAnon'), file: mib('RssFile') }
}

for (let run = 0; run < runs; run++) {
  const datadir = mkdtempSync(join(tmpdir(), 'sponge-idle-'))
  const started = performance.now()
  const node = await spawnNode(['--chain', 'dev', '--datadir', datadir], 120_000, cli)
  const rpc = async (method: string, params: unknown[] = []) => {
    const t = performance.now()
    const res = await fetch(node.httpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    const reply = (await res.json()) as { result?: unknown }
    if (reply.result === undefined) throw new Error(`${method}: ${JSON.stringify(reply)}`)
    return performance.now() - t
  }
  try {
    await rpc('eth_blockNumber')
    const serving = performance.now() - started
    await sleep(settleMs)
    const readings: ReturnType<typeof memory>[] = []
    for (let i = 0; i < 3; i++) {
      if (i > 0) await sleep(2000)
      readings.push(memory(node.process.pid!))
    }
    const proof = [devAccounts()[0]!.address, [], 'latest']
    const first = await rpc('eth_getProof', proof)
    const second = await rpc('eth_getProof', proof)
    const list = (k: keyof ReturnType<typeof memory>) => readings.map((r) => r[k].toFixed(0)).join('/')
    process.stdout.write(
      `run ${run + 1}: answered eth_blockNumber ${serving.toFixed(0)} ms after spawn; VmRSS ${list('rss')} MiB ` +
        `(anonymous ${list('anon')}, file ${list('file')}); first public-lane call ${first.toFixed(0)} ms, second ${second.toFixed(0)} ms\n`,
    )
  } finally {
    await node.stop()
    rmSync(datadir, { recursive: true, force: true })
  }
}
