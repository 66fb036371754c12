import { ALL_FORKS, type Fork } from '../chain/evmFork.js'
import { parseFlags, runScript, UsageError } from '../cli/args.js'
import { forkNamed } from './evmForkNames.js'
import { fuzzEvm } from './evmFuzz.js'
import { disagreementLines, summaryLine } from './evmReport.js'

const USAGE = `usage: npm run fuzz:evm -- [flags]

Generated programs over several contracts, run as transactions on the same pre-state by Sponge's EVM and by
EthereumJS 10.1.3, compared on status, gas used, output, logs and the state root. The first disagreement is shrunk
and printed (its fork, block, accounts with their code, transactions, both outcomes); the exit code is then 1.

  --seed <n>      the run's seed (default: the clock's; printed)
  --runs <n>      cases (default 1000)
  --fork <name>   only this fork (frontier, homestead, tangerineWhistle, spuriousDragon, byzantium, constantinople,
                  petersburg, istanbul, berlin, london, paris, shanghai, cancun, prague, osaka; default: all, in turn)
  --case <i>      only case i of the seed's sequence (as a disagreement names it)
`

function count(flags: Map<string, string>, name: string, fallback: number): number {
  const raw = flags.get(name)
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name}: expected a non-negative integer, got "${raw}"`)
  return Number(raw)
}

async function main(argv: string[]): Promise<number> {
  const { flags, positional } = parseFlags(argv, { seed: 'string', runs: 'string', fork: 'string', case: 'string', help: 'boolean' })
  if (flags.has('help')) {
    process.stdout.write(USAGE)
    return 0
  }
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`)
  const seed = count(flags, 'seed', Date.now() % 2 ** 31)
  const runs = count(flags, 'runs', 1000)
  let forks: readonly Fork[] = ALL_FORKS
  if (flags.has('fork')) {
    const fork = forkNamed(flags.get('fork')!)
    if (fork === undefined) throw new UsageError(`--fork: no fork named ${flags.get('fork')}`)
    forks = [fork]
  }
  const only = flags.has('case') ? count(flags, 'case', 0) : undefined
  const print = (line: string) => process.stdout.write(`${line}\n`)
  print(`seed ${seed}`)
  const started = performance.now()
  let lastProgress = started
  const report = await fuzzEvm({
    seed,
    runs,
    forks,
    ...(only === undefined ? {} : { only }),
    onCase: (i) => {
      const now = performance.now()
      if (now - lastProgress < 10_000) return
      lastProgress = now
      process.stderr.write(`${i + 1}/${runs} cases, ${((now - started) / 1000).toFixed(0)} s\n`)
    },
  })
  if (report.disagreement !== undefined) for (const line of disagreementLines(report.disagreement)) print(line)
  print(`${summaryLine(report)} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return report.disagreement === undefined ? 0 : 1
}

await runScript(main, USAGE)
