import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { GethGenesisFile } from '../chain/genesis.js'
import { parseFlags } from '../cli/args.js'
import type { PayloadData } from '../engine/worker/payloadBlock.js'

// `node dist/bench/importCpu.js --from <dir> [--workload tokens --rounds 3 --against <other dist>…]`: the payloads
// `bench:exec --save <dir>` kept, imported in this process by each build given (this one first, then every
// `--against`) on a fresh store: engine_newPayload's work (payloadToBlock, then importPayload: execute and store) and
// the head moved to the block as forkchoiceUpdated moves it (the flat table follows), one thread — the senders
// recovered in-thread, no helper. Prints the CPU time (process.cpuUsage) of each block's import, the cold first
// block apart; the builds alternate round by round with the order swapped, so that both see the same machine. CPU,
// not wall time: on the shared two-core machine it moves least with the neighbours' load.

type Spec = typeof import('../chain/spec.js')
type Store = typeof import('../store/chainStore.js')
type Genesis = typeof import('../state/genesis.js')
type Executor = typeof import('../exec/executor.js')
type Import = typeof import('../engine/worker/payloadImport.js')

const args = parseFlags(process.argv.slice(2), { from: 'string', workload: 'string', rounds: 'string', against: 'string' })
const from = args.flags.get('from')
if (from === undefined) {
  process.stderr.write('usage: node dist/bench/importCpu.js --from <bench:exec --save dir> [--workload tokens --rounds 3 --against <dist>]\n')
  process.exit(2)
}
const workload = args.flags.get('workload') ?? 'tokens'
const rounds = Number(args.flags.get('rounds') ?? 3)
const genesis = JSON.parse(readFileSync(join(from, `${workload}.genesis.json`), 'utf8')) as GethGenesisFile
const payloads = JSON.parse(readFileSync(join(from, `${workload}.payloads.json`), 'utf8')) as { payload: PayloadData }[]
const ZERO32 = `0x${'00'.repeat(32)}`

async function load(dist: string) {
  const at = (f: string) => pathToFileURL(join(dist, f)).href
  return {
    dist,
    spec: (await import(at('chain/spec.js'))) as Spec,
    store: (await import(at('store/chainStore.js'))) as Store,
    genesis: (await import(at('state/genesis.js'))) as Genesis,
    executor: (await import(at('exec/executor.js'))) as Executor,
    import: (await import(at('engine/worker/payloadImport.js'))) as Import,
    warm: [] as number[],
  }
}
type Build = Awaited<ReturnType<typeof load>>

/** CPU ms of each block's import, in order. */
async function importAll(b: Build): Promise<number[]> {
  const spec = new b.spec.ChainSpec(genesis)
  const datadir = mkdtempSync(join(tmpdir(), 'sponge-import-cpu-'))
  const store = new b.store.ChainStore(datadir)
  try {
    await b.genesis.genesisBlock(spec, store)
    const executor = await b.executor.BlockExecutor.create(spec, store)
    const cpu: number[] = []
    for (const { payload } of payloads) {
      const before = process.cpuUsage()
      const input: Parameters<Import['importPayload']>[3] = {
        version: 4,
        payload,
        versionedHashes: [],
        parentBeaconBlockRoot: ZERO32,
        executionRequests: [],
      }
      const status = await b.import.importPayload(spec, store, executor, input)
      const used = process.cpuUsage(before)
      if (status.status !== 'VALID') throw new Error(`${b.dist}: block ${payload.blockNumber} ${status.status} ${status.validationError ?? ''}`)
      cpu.push((used.user + used.system) / 1000)
      const number = BigInt(payload.blockNumber)
      const hash = Buffer.from(payload.blockHash.slice(2), 'hex')
      store.setCanonicalSync(number - 1n, [{ number, hash }], number - 1n, { head: hash })
    }
    return cpu
  } finally {
    await store.close()
    rmSync(datadir, { recursive: true, force: true })
  }
}

const self = resolve(fileURLToPath(new URL('..', import.meta.url)))
const builds = [await load(self), ...(args.flags.get('against') === undefined ? [] : [await load(resolve(args.flags.get('against')!))])]
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
for (let r = 0; r < rounds; r++) {
  for (const b of r % 2 === 0 ? builds : [...builds].reverse()) {
    const cpu = await importAll(b)
    b.warm.push(...cpu.slice(1))
    process.stdout.write(`round ${r + 1} ${b.dist}: first block ${cpu[0]!.toFixed(0)} ms, warm mean ${mean(cpu.slice(1)).toFixed(1)} ms CPU\n`)
  }
}
const txs = payloads[1]?.payload.transactions.length ?? 0
for (const b of builds) {
  process.stdout.write(
    `${b.dist}: ${b.warm.length} warm blocks of ~${txs} transactions, CPU a block mean ${mean(b.warm).toFixed(1)} ms, median ${median(b.warm).toFixed(1)} ms\n`,
  )
}
if (builds.length === 2) process.stdout.write(`this / against, medians: ${(median(builds[0]!.warm) / median(builds[1]!.warm)).toFixed(3)}\n`)
