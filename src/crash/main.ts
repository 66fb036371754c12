import { fileURLToPath } from 'node:url'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { parseFlags } from '../cli/args.js'
import { spawnNode } from '../testing/spawnNode.js'
import { rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { importTrial, streamTrial } from './trials.js'

// `npm run crash [-- --trials 20 --imports 10 --seed N]`: kill trials, longer than npm test's three. Stream trials
// share one datadir (kills pile up on the same store); each import trial starts a fresh one.

const args = parseFlags(process.argv.slice(2), { trials: 'string', imports: 'string', seed: 'string' })
const trials = Number(args.flags.get('trials') ?? 20)
const imports = Number(args.flags.get('imports') ?? 10)
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
for (let t = 1; t <= imports; t++) {
  try {
    const r = await importTrial({ datadir: tempDatadir('crash-import'), cli, random, expectedHead })
    log(`import trial ${t}: killed after ${r.killedAfter} blocks, resumed to head ${r.head}, links intact`)
  } catch (e) {
    failed++
    log(`import trial ${t} FAILED: ${(e as Error).message}`)
  }
}
log(`seed ${seed}`)
log(`crash: ${trials + imports - failed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
