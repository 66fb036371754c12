import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { UsageError, intFlag, parseFlags, patternFlag, runScript } from '../../cli/args.js'
import { DEFAULT_ARCHIVE, DEFAULT_CACHE, openDirectory, openFixtures, sampleCases, selectCases } from './archive.js'
import { reportLines } from './report.js'
import { runCases } from './runner.js'
import { EXECUTOR_MODULES, type EvmName } from './worker.js'

const USAGE = `usage: npm run eest:state -- [flags]

Runs the execution-spec-tests state tests (test/fixtures/eest-state) on an EVM: each case's transaction on its
pre-state, checking the post-state root, the logs hash and the expected rejection.

  --only <regexp>       the cases whose file path (cancun/eip1153_tstore/…) or test name it matches
  --fork <regexp>       the cases of the post forks it matches whole (Cancun, EIP150, ConstantinopleFix…)
  --evm <name>          sponge | ethereumjs (default sponge)
  --jobs <n>            worker threads (default: the cores, ${availableParallelism()} here)
  --sample <n>          n cases drawn from those selected, the same ones for the same --seed
  --seed <n>            the sample's seed (default 1)
  --show <n>            failures printed per folder (default 8)
  --folders             a line per folder with its pass count
  --forks               a line per post fork with its pass count
  --slowest <n>         the n slowest cases with their times
  --timeout <s>         a case answering nothing this long fails, its worker replaced (default 300)
  --archive <file>      another state_tests.tar.gz (default test/fixtures/eest-state/state_tests.tar.gz)
  --fixtures <dir>      an unpacked directory of state tests instead (ethereum/legacytests' GeneralStateTests)
  --cache <dir>         where archives are unpacked (default node_modules/.cache/sponge-eest-state)
`

async function main(argv: string[]): Promise<number> {
  const { flags, positional } = parseFlags(argv, {
    only: 'string',
    evm: 'string',
    jobs: 'string',
    sample: 'string',
    seed: 'string',
    show: 'string',
    folders: 'boolean',
    fork: 'string',
    forks: 'boolean',
    slowest: 'string',
    timeout: 'string',
    archive: 'string',
    cache: 'string',
    fixtures: 'string',
    help: 'boolean',
  })
  if (flags.has('help')) {
    process.stdout.write(USAGE)
    return 0
  }
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`)
  const evm = flags.get('evm') ?? 'sponge'
  if (!(evm in EXECUTOR_MODULES)) throw new UsageError(`--evm: expected one of ${Object.keys(EXECUTOR_MODULES).join(', ')}, got "${evm}"`)
  const module = fileURLToPath(new URL(EXECUTOR_MODULES[evm as EvmName], import.meta.url))
  if (!existsSync(module)) {
    process.stderr.write(`the ${evm} executor is not built (no ${module}): run npm run build\n`)
    return 2
  }
  const only = patternFlag(flags, 'only')
  const jobs = intFlag(flags, 'jobs', availableParallelism(), 1)
  const show = intFlag(flags, 'show', 8, 0)
  const timeoutMs = intFlag(flags, 'timeout', 300, 1) * 1000
  const slowest = intFlag(flags, 'slowest', 0, 0)
  const sample = flags.has('sample') ? { n: intFlag(flags, 'sample', 0, 0), seed: intFlag(flags, 'seed', 1, 0) } : undefined
  const print = (line: string) => process.stdout.write(`${line}\n`)

  const started = Date.now()
  if (flags.has('fixtures') && (flags.has('archive') || flags.has('cache')))
    throw new UsageError('--fixtures takes the place of --archive and --cache')
  const fixtures = flags.has('fixtures')
    ? openDirectory(flags.get('fixtures')!)
    : openFixtures(flags.get('archive') ?? DEFAULT_ARCHIVE, flags.get('cache') ?? DEFAULT_CACHE, (line) => process.stderr.write(`${line}\n`))
  let forkPattern: RegExp | undefined
  try {
    forkPattern = flags.has('fork') ? new RegExp(`^(?:${flags.get('fork')!})$`) : undefined
  } catch (e) {
    throw new UsageError(`--fork: ${(e as Error).message}`)
  }
  let cases = selectCases(fixtures.files, only)
  if (forkPattern !== undefined) cases = cases.filter((c) => forkPattern.test(c.fork))
  if (sample !== undefined) cases = sampleCases(cases, sample.n, sample.seed)
  const tty = process.stderr.isTTY === true
  let lastProgress = 0
  let failedSoFar = 0
  const results = await runCases(cases, {
    evm: evm as EvmName,
    dir: fixtures.dir,
    jobs,
    timeoutMs,
    onResult: (r, done, total) => {
      if (r.reason !== undefined) failedSoFar++
      const now = Date.now()
      if (done !== total && now - lastProgress < (tty ? 200 : 10_000)) return
      lastProgress = now
      const line = `${done}/${total} cases, ${failedSoFar} failed, ${((now - started) / 1000).toFixed(0)} s`
      process.stderr.write(tty ? `\r${line}   ${done === total ? '\n' : ''}` : `${line}\n`)
    },
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  const lines = reportLines(results, { show, folders: flags.has('folders'), forks: flags.has('forks'), slowest })
  for (const line of lines.slice(0, -1)) print(line)
  const threads = Math.min(jobs, new Set(cases.map((c) => c.file)).size)
  print(`${results.length} cases with --evm ${evm} on ${threads} worker threads in ${seconds} s`)
  print(lines[lines.length - 1]!)
  return results.every((r) => r.reason === undefined) ? 0 : 1
}

await runScript(main, USAGE)
