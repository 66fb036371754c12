import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { parseFlags } from '../cli/args.js'
import { spawnNode } from '../testing/spawnNode.js'
import { fuzzGenesis } from './chain.js'
import { HEAVY_BOUNDS, HEAVY_QUEUE, runHeavy } from './heavy.js'
import { runFuzz } from './run.js'

// `npm run fuzz [-- --runs 100000 --replies 2000 --flood 2000 --only requests,replies,flood --seed N]`: the fuzz
// suite of `npm test`, longer, against nodes started from this build's command line. `requests`: malformed and odd
// requests over both endpoints (--runs of them); `replies`: batches of huge replies against small reply bounds
// (--replies cases); `flood`: a flood of heavy eth_calls while other clients read and call (--flood requests of
// theirs). Prints the seed, the cases and every failure; exits 1 on any. `--seed N` repeats a run.

const CASES = ['requests', 'replies', 'flood']
const args = parseFlags(process.argv.slice(2), { runs: 'string', replies: 'string', flood: 'string', only: 'string', seed: 'string' })
const runs = Number(args.flags.get('runs') ?? 100_000)
const replies = Number(args.flags.get('replies') ?? 2000)
const floodOps = Number(args.flags.get('flood') ?? 2000)
const only = (args.flags.get('only') ?? CASES.join(',')).split(',')
for (const name of only) {
  if (!CASES.includes(name)) {
    process.stderr.write(`--only: unknown case ${name}, of ${CASES.join(', ')}\n`)
    process.exit(2)
  }
}
const seed = Number(args.flags.get('seed') ?? Date.now() % 2 ** 31)
const log = (l: string) => process.stdout.write(`${l}\n`)
const isServing = (url: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' })
    .then((r) => r.ok)
    .catch(() => false)
log(`seed ${seed}`)
let failed = 0

if (only.includes('requests')) {
  const work = mkdtempSync(join(tmpdir(), 'sponge-fuzz-'))
  const secret = randomBytes(32)
  writeFileSync(join(work, 'jwt.hex'), secret.toString('hex'))
  const node = await spawnNode([
    ...['--chain', 'dev', '--datadir', join(work, 'data'), '--no-mining', '--http.api', 'eth,net,web3,testing'],
    ...['--authrpc.jwtsecret', join(work, 'jwt.hex'), '--rpc.batchlimit', '100'],
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
  const alive = await isServing(node.httpUrl)
  await node.stop()
  rmSync(work, { recursive: true, force: true })
  log(`requests, seed ${seed}: ${report.cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s ${JSON.stringify(report.byKind)}`)
  for (const f of report.failures) log(`FAIL ${f.kind}: ${f.why}\n  ${f.body}`)
  failed += report.failures.length + (alive ? 0 : 1)
  if (!alive) log('FAIL requests: node not serving after')
}

if (only.includes('replies') || only.includes('flood')) {
  // A chain of big code, big returns, big logs and a loop (a genesis file: the command line takes no contracts),
  // in dev mode (a genesis file's node makes blocks only with --dev.period: one a second), with small reply bounds
  // and a small lane.
  const work = mkdtempSync(join(tmpdir(), 'sponge-fuzz-heavy-'))
  const genesis = fuzzGenesis()
  writeFileSync(join(work, 'genesis.json'), JSON.stringify(genesis))
  const node = await spawnNode([
    ...['--chain', join(work, 'genesis.json'), '--datadir', join(work, 'data'), '--workers', '1', '--dev.period', '1'],
    ...['--rpc.max-response-size', String(HEAVY_BOUNDS.maxReply), '--rpc.batch-response-max-size', String(HEAVY_BOUNDS.maxBatchReply)],
    ...['--rpc.maxqueue', String(HEAVY_QUEUE)],
  ])
  try {
    const run = await runHeavy({
      url: node.httpUrl,
      spec: new ChainSpec(genesis),
      seed,
      replies: only.includes('replies') ? replies : 0,
      floodOps: only.includes('flood') ? floodOps : 0,
      // Each flood call loops for up to a second or so (the EIP-7825 cap, 2^24, would take the node's 5 s limit).
      floodGas: 2 ** 22,
    })
    for (const l of run.lines) log(l)
    failed += run.failed
  } finally {
    await node.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

log(`fuzz: ${failed === 0 ? 'passed' : `${failed} failures`}; repeat with --seed ${seed}`)
process.exit(failed === 0 ? 0 : 1)
