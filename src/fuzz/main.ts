import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { parseFlags } from '../cli/args.js'
import { spawnNode } from '../testing/spawnNode.js'
import { runFuzz } from './run.js'

// `npm run fuzz [-- --runs 100000 --seed N]`: the fuzz suite of `npm test`, longer, against a node started from this
// build's command line. Prints the cases by kind and every failure; exits 1 on any.

const args = parseFlags(process.argv.slice(2), { runs: 'string', seed: 'string' })
const runs = Number(args.flags.get('runs') ?? 100_000)
const seed = Number(args.flags.get('seed') ?? Date.now() % 2 ** 31)
const work = mkdtempSync(join(tmpdir(), 'sponge-fuzz-'))
const secret = randomBytes(32)
writeFileSync(join(work, 'jwt.hex'), secret.toString('hex'))
const node = await spawnNode([
  '--chain',
  'dev',
  '--datadir',
  join(work, 'data'),
  '--no-mining',
  '--http.api',
  'eth,net,web3,testing',
  '--authrpc.jwtsecret',
  join(work, 'jwt.hex'),
  '--rpc.batchlimit',
  '100',
])
const started = performance.now()
const report = await runFuzz({
  spec: new ChainSpec(devGenesis()),
  httpUrl: node.httpUrl,
  authUrl: node.authUrl!,
  jwtSecret: secret,
  maxBatch: 100,
  runs,
  seed,
})
const alive = await fetch(node.httpUrl, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}',
})
  .then((r) => r.ok)
  .catch(() => false)
await node.stop()
rmSync(work, { recursive: true, force: true })
process.stdout.write(
  `seed ${seed}: ${report.cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s ${JSON.stringify(report.byKind)}\n`,
)
for (const f of report.failures) process.stdout.write(`FAIL ${f.kind}: ${f.why}\n  ${f.body}\n`)
process.stdout.write(
  `fuzz: ${report.cases - report.failures.length} passed, ${report.failures.length} failed${alive ? '' : '; node not serving after'}\n`,
)
process.exit(report.failures.length === 0 && alive ? 0 : 1)
