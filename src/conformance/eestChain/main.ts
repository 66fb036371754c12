import { appendFileSync, writeFileSync } from 'node:fs'
import { UsageError, dirFlag, intFlag, parseFlags, patternFlag, runScript } from '../../cli/args.js'
import { sampleCases } from '../eestState/archive.js'
import { type CaseRef, fixtureFiles, indexCases, readFixtureFile } from './cases.js'
import { convertCase } from './convert.js'
import type { FixtureCase } from './fixture.js'
import { type CaseResult, reportLines } from './report.js'
import { type NodeMode, runConvertedCase } from './runCase.js'

const USAGE = `usage: npm run eest:blockchain -- --fixtures <dir> [flags]

Runs execution-spec-tests blockchain_test fixtures through the Engine API, converting each case on the fly by the
rules of test/fixtures/conformance/eest/README.md: a fresh node on the case's genesis, engine_newPayload per block
(INVALID expected where the fixture expects an exception), forkchoiceUpdated to each valid block, then the head and
every post-state account read back over JSON-RPC.

  --fixtures <dir>   a directory of fixture files (e.g. erigontech/eest-fixtures' blockchain_tests/prague)
  --only <regexp>    the cases whose id (<file>::<test name>) it matches
  --limit <n>        n cases drawn from those selected, the same ones for the same --seed
  --seed <n>         the draw's seed (default 1)
  --jobs <n>         cases run at once (default 1)
  --node <mode>      inprocess (default: startNode in this process) | spawn (sponge node per case)
  --timeout <s>      a case taking longer fails (default 120)
  --show <n>         failures listed per folder (default 50)
  --report <file>    a JSON line per case (id, folder, verdict, reason)
  --verbose          a line per case as it ends
`

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no verdict within ${ms / 1000} s`)), ms)
  })
  return Promise.race([p, expired]).finally(() => clearTimeout(timer))
}

async function runOne(ref: CaseRef, fixture: FixtureCase, mode: NodeMode, timeoutMs: number): Promise<CaseResult> {
  const started = Date.now()
  const base = { id: ref.id, folder: ref.folder, network: fixture.network }
  let conversion: ReturnType<typeof convertCase>
  try {
    conversion = convertCase(ref.id, fixture)
  } catch (e) {
    return { ...base, verdict: 'skip', skip: 'format', reason: (e as Error).message, ms: 0 }
  }
  if (conversion.kind === 'skip') return { ...base, verdict: 'skip', skip: conversion.skip, reason: conversion.why, ms: 0 }
  let reason: string | undefined
  try {
    reason = await withTimeout(runConvertedCase(conversion.genesis, conversion.engineCase, mode), timeoutMs)
  } catch (e) {
    reason = `runner: ${(e as Error).message.split('\n')[0]}`
  }
  const ms = Date.now() - started
  const blocks = conversion.skippedBlocks
  return reason === undefined
    ? { ...base, verdict: 'pass', skippedBlocks: blocks, ms }
    : { ...base, verdict: 'fail', reason, skippedBlocks: blocks, ms }
}

async function main(argv: string[]): Promise<number> {
  const { flags, positional } = parseFlags(argv, {
    fixtures: 'string',
    only: 'string',
    limit: 'string',
    seed: 'string',
    jobs: 'string',
    node: 'string',
    timeout: 'string',
    show: 'string',
    report: 'string',
    verbose: 'boolean',
    help: 'boolean',
  })
  if (flags.has('help')) {
    process.stdout.write(USAGE)
    return 0
  }
  if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`)
  const root = dirFlag(flags, 'fixtures', 'a directory of blockchain_test fixture files')
  const only = patternFlag(flags, 'only')
  const mode = flags.get('node') ?? 'inprocess'
  if (mode !== 'inprocess' && mode !== 'spawn') throw new UsageError(`--node: expected inprocess or spawn, got "${mode}"`)
  const jobs = intFlag(flags, 'jobs', 1, 1)
  const timeoutMs = intFlag(flags, 'timeout', 120, 1) * 1000
  const show = intFlag(flags, 'show', 50, 0)
  const reportFile = flags.get('report')
  if (reportFile !== undefined) writeFileSync(reportFile, '')
  const print = (line: string) => process.stdout.write(`${line}\n`)

  const started = Date.now()
  const files = fixtureFiles(root)
  let cases = indexCases(root, files, only)
  if (flags.has('limit')) cases = sampleCases(cases, intFlag(flags, 'limit', 0, 0), intFlag(flags, 'seed', 1, 0))
  process.stderr.write(
    `${cases.length} cases in ${new Set(cases.map((c) => c.file)).size} files, indexed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  )

  const results: CaseResult[] = []
  let lastProgress = Date.now()
  const record = (r: CaseResult) => {
    results.push(r)
    if (reportFile !== undefined) appendFileSync(reportFile, `${JSON.stringify(r)}\n`)
    if (r.verdict === 'fail') print(`FAIL ${r.id}: ${r.reason}`)
    else if (flags.has('verbose')) print(`${r.verdict.toUpperCase()} ${r.id}${r.verdict === 'skip' ? ` (${r.skip}: ${r.reason})` : ` ${r.ms} ms`}`)
    const now = Date.now()
    if (now - lastProgress >= 30_000) {
      lastProgress = now
      const failed = results.filter((x) => x.verdict === 'fail').length
      process.stderr.write(`${results.length}/${cases.length} cases, ${failed} failed, ${((now - started) / 1000).toFixed(0)} s\n`)
    }
  }
  // `jobs` cases at once, in file order: a file is read when its first case starts and let go after its last.
  const loaded = new Map<string, { cases: Record<string, FixtureCase>; left: number }>()
  const left = new Map<string, number>()
  for (const c of cases) left.set(c.file, (left.get(c.file) ?? 0) + 1)
  let next = 0
  const lane = async () => {
    while (next < cases.length) {
      const ref = cases[next++]!
      let file = loaded.get(ref.file)
      if (file === undefined) loaded.set(ref.file, (file = { cases: readFixtureFile(root, ref.file), left: left.get(ref.file)! }))
      const fixture = file.cases[ref.name]!
      if (--file.left === 0) loaded.delete(ref.file)
      record(await runOne(ref, fixture, mode, timeoutMs))
    }
  }
  await Promise.all(Array.from({ length: jobs }, lane))
  const seconds = (Date.now() - started) / 1000
  for (const line of reportLines(results, show)) print(line)
  const ran = results.filter((r) => r.verdict !== 'skip').length
  print(`${results.length} cases (${ran} run) in ${seconds.toFixed(1)} s, --node ${mode} --jobs ${jobs}`)
  return results.some((r) => r.verdict === 'fail') ? 1 : 0
}

await runScript(main, USAGE)
