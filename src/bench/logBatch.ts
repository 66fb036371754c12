import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { parseFlags } from '../cli/args.js'
import { logEmitter } from '../testing/asm.js'
import { spawnNode } from '../testing/spawnNode.js'
import { mineAll, rpcClient, signTxs } from './chainGen.js'

// `node dist/bench/logBatch.js [--cli <main.js>]` (issue 31 item 2): one batch of 100 whole-chain eth_getLogs on a
// node whose chain holds 9,800 logs of 256 bytes (~9 MB a reply; the batch's 25 MB bound is passed by the third),
// and an Engine API call sent 20 ms after it: how long each took, and the node's VmRSS before, at its peak (sampled
// every 50 ms), right after the batch and 10 s later. `--cli` runs another build's node.

const args = parseFlags(process.argv.slice(2), { cli: 'string' })
const cli = args.flags.get('cli')
const EMITTER = '0x00000000000000000000000000000000000e4a7e'
const TOPIC = `0x${'5e'.repeat(32)}` as const
/** 200 times LOG1(TOPIC) of 256 bytes. */
const CODE = logEmitter(200, TOPIC, 256)

const g = devGenesis()
g.alloc[EMITTER] = { balance: '0x0', code: CODE }
const dir = mkdtempSync(join(tmpdir(), 'sponge-logbatch-'))
const secret = Buffer.alloc(32, 5)
writeFileSync(join(dir, 'genesis.json'), JSON.stringify(g))
writeFileSync(join(dir, 'jwt.hex'), secret.toString('hex'))
const node = await spawnNode(
  ['--chain', join(dir, 'genesis.json'), '--datadir', join(dir, 'data'), '--authrpc.jwtsecret', join(dir, 'jwt.hex'), '--no-mining'],
  120_000,
  cli,
)
try {
  const http = rpcClient(node.httpUrl)
  const engine = rpcClient(node.authUrl!, secret)
  for (const raw of signTxs(new ChainSpec(g), 49, () => ({ to: EMITTER, gasLimit: 2_000_000n }))) {
    await http('eth_sendRawTransaction', [raw])
    await mineAll(engine, http)
  }
  const rss = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${node.process.pid}/status`, 'utf8'))?.[1]) / 1024)
  const whole = { fromBlock: '0x0', toBlock: 'latest' }
  const one = (await http('eth_getLogs', [whole])) as unknown[]
  const before = rss()
  const body = JSON.stringify(Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_getLogs', params: [whole] })))
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss())
  }, 50)
  const t0 = performance.now()
  const batch = fetch(node.httpUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(async (r) => {
    const text = await r.text()
    return { ms: performance.now() - t0, bytes: text.length }
  })
  await new Promise((r) => setTimeout(r, 20))
  const e0 = performance.now()
  await engine('eth_blockNumber', [])
  const engineMs = performance.now() - e0
  const b = await batch
  clearInterval(sampler)
  const after = rss()
  await new Promise((r) => setTimeout(r, 10_000))
  console.log(
    `${one.length} logs a query; batch of 100 answered in ${b.ms.toFixed(0)} ms (${b.bytes} bytes); engine call sent meanwhile ${engineMs.toFixed(0)} ms; ` +
      `VmRSS ${before} MiB before, peak ${peak}, ${after} right after, ${rss()} 10 s later`,
  )
} finally {
  await node.stop()
  rmSync(dir, { recursive: true, force: true })
}
