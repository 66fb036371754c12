import { fileURLToPath } from 'node:url'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { parseFlags } from '../cli/args.js'
import { spawnNode } from '../testing/spawnNode.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { mountSmallFs } from '../testing/smallFs.js'
import { diskFullTrial, importTrial, streamTrial, twoWritersTrial, walletTrial } from './trials.js'

// `npm run crash [-- --trials 20 --imports 10 --two-writers 10 --full-disk 10 --wallet 10
// --only stream,import,two-writers,full-disk,wallet
// --seed N]`: kill trials, longer than npm test's. Stream trials share one datadir (kills pile up on the same store),
// as do the two-writer and the wallet trials; each import trial starts a fresh one; the full-disk trials share one small tmpfs
// (needs root: skipped with a message otherwise). `--seed N` repeats a run's random choices.

const KINDS = ['stream', 'import', 'two-writers', 'full-disk', 'wallet']
const args = parseFlags(process.argv.slice(2), {
  trials: 'string',
  imports: 'string',
  'two-writers': 'string',
  'full-disk': 'string',
  wallet: 'string',
  only: 'string',
  seed: 'string',
})
const only = (args.flags.get('only') ?? KINDS.join(',')).split(',')
for (const name of only) {
  if (!KINDS.includes(name)) {
    process.stderr.write(`--only: unknown trial ${name}, of ${KINDS.join(', ')}\n`)
    process.exit(2)
  }
}
const trials = only.includes('stream') ? Number(args.flags.get('trials') ?? 20) : 0
const imports = only.includes('import') ? Number(args.flags.get('imports') ?? 10) : 0
const twoWriters = only.includes('two-writers') ? Number(args.flags.get('two-writers') ?? 10) : 0
const fullDisk = only.includes('full-disk') ? Number(args.flags.get('full-disk') ?? 10) : 0
const wallets = only.includes('wallet') ? Number(args.flags.get('wallet') ?? 10) : 0
let s = Number(args.flags.get('seed') ?? Date.now() % 2 ** 31)
const seed = s
const random = () => {
  s = (s * 1103515245 + 12345) % 2 ** 31
  return s / 2 ** 31
}
const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url))
const log = (l: string) => process.stdout.write(`${l}\n`)
let failed = 0

const spec = new ChainSpec(devGenesis())
const datadir = tempDatadir('crash')
const seen = new Map<string, string>()
for (let t = 1; t <= trials; t++) {
  try {
    const r = await streamTrial({ spec, datadir, cli, seen, random, from: 1 })
    log(`stream trial ${t}: ${r.receiptsChecked} receipts identical after the kill, chain links intact to head ${r.head}`)
  } catch (e) {
    failed++
    log(`stream trial ${t} FAILED: ${(e as Error).message}`)
  }
}

// The head a clean import reaches, for the import trials to end at.
const clean = imports === 0 ? undefined : await cleanImportHead()
for (let t = 1; t <= imports; t++) {
  try {
    const r = await importTrial({ datadir: tempDatadir('crash-import'), cli, random, expectedHead: clean! })
    log(`import trial ${t}: killed after ${r.killedAfter} blocks, resumed to head ${r.head}, links intact`)
  } catch (e) {
    failed++
    log(`import trial ${t} FAILED: ${(e as Error).message}`)
  }
}

const writersDir = tempDatadir('crash-two-writers')
const writersSeen = new Map<string, string>()
for (let t = 1; t <= twoWriters; t++) {
  try {
    const r = await twoWritersTrial({ spec, datadir: writersDir, cli, seen: writersSeen, random, from: 3 })
    log(`two-writers trial ${t}: ${r.refusals} second writers refused, ${r.receiptsChecked} receipts identical after the kill`)
  } catch (e) {
    failed++
    log(`two-writers trial ${t} FAILED: ${(e as Error).message}`)
  }
}

let diskSkipped = 0
if (fullDisk > 0) {
  const fs = mountSmallFs(16 * 1024 * 1024)
  if (typeof fs === 'string') {
    diskSkipped = fullDisk
    log(`full-disk trials skipped: ${fs}`)
  } else {
    const acknowledged = new Set<string>()
    try {
      for (let t = 1; t <= fullDisk; t++) {
        try {
          const r = await diskFullTrial({ spec, fs, cli, acknowledged, random, from: 4 })
          log(`full-disk trial ${t}: ${r.refused} sends refused ENOSPC, ${r.receiptsChecked} acknowledged all with receipts`)
        } catch (e) {
          failed++
          log(`full-disk trial ${t} FAILED: ${(e as Error).message}`)
        }
      }
    } finally {
      fs.unmount()
    }
  }
}

const walletDir = tempDatadir('crash-wallet')
for (let t = 1; t <= wallets; t++) {
  try {
    const r = await walletTrial({ datadir: walletDir, cli, random, from: 5 })
    log(`wallet trial ${t}: ${r.acknowledged} concurrent sends from one account acknowledged, each with its own nonce and receipt after the kill`)
  } catch (e) {
    failed++
    log(`wallet trial ${t} FAILED: ${(e as Error).message}`)
  }
}

log(`seed ${seed}`)
log(
  `crash: ${trials + imports + twoWriters + fullDisk + wallets - diskSkipped - failed} passed, ${failed} failed${diskSkipped > 0 ? `, ${diskSkipped} skipped` : ''}`,
)
process.exit(failed === 0 ? 0 : 1)

async function cleanImportHead(): Promise<string> {
  const clean = await spawnNode(
    ['--chain', rpcCompatPath('genesis.json'), '--datadir', tempDatadir('crash-ref'), '--import', rpcCompatPath('chain.rlp')],
    120_000,
    cli,
  )
  const reply = await fetch(clean.httpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1,"method":"eth_getBlockByNumber","params":["latest",false]}',
  })
  const expectedHead = ((await reply.json()) as { result: { hash: string } }).result.hash
  await clean.stop()
  return expectedHead
}
