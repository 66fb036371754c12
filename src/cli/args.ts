import { parseArgs as parseWithNode } from 'node:util'
import { LOG_LEVELS, type LogLevel } from '../util/logger.js'

/** A command line that cannot be run as given: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

type Kind = 'string' | 'boolean'

const COMMON: Record<string, Kind> = {
  chain: 'string',
  datadir: 'string',
  'no-progress': 'boolean',
  help: 'boolean',
  'log.level': 'string',
}

/** Every flag each command takes (geth/reth names); anything else is an error naming it. */
const COMMAND_FLAGS: Record<string, Record<string, Kind>> = {
  import: COMMON,
  node: {
    ...COMMON,
    import: 'string',
    'http.addr': 'string',
    'http.port': 'string',
    'http.api': 'string',
    'http.vhosts': 'string',
    'http.corsdomain': 'string',
    'authrpc.addr': 'string',
    'authrpc.port': 'string',
    'authrpc.jwtsecret': 'string',
    'authrpc.vhosts': 'string',
    workers: 'string',
    'workers.engine': 'string',
    'miner.gaslimit': 'string',
    'txpool.size': 'string',
    'txpool.accountslots': 'string',
    'dev.period': 'string',
    'no-mining': 'boolean',
    'rpc.maxqueue': 'string',
    'rpc.maxbodysize': 'string',
    'rpc.batchlimit': 'string',
    'rpc.gascap': 'string',
    'rpc.evmtimeout': 'string',
    'rpc.logs.maxrange': 'string',
    'rpc.logs.maxresults': 'string',
    metrics: 'boolean',
    'metrics.addr': 'string',
    'metrics.port': 'string',
  },
}

export interface ParsedArgs {
  command: string | undefined
  positional: string[]
  flags: Map<string, string>
}

/** `sponge <command> [--flag value | --flag=value | --bool]…`, parsed strictly by node:util's parseArgs. */
export function parseArgs(argv: string[]): ParsedArgs {
  const [first, ...rest] = argv
  if (first === undefined || first === '--help' || first === '-h') {
    return { command: undefined, positional: [], flags: new Map(first === undefined ? [] : [['help', 'true']]) }
  }
  const known = COMMAND_FLAGS[first]
  if (known === undefined) throw new UsageError(`unknown command ${first}`)
  return { command: first, ...parseFlags(rest, known) }
}

/** Flags of a script (bench, conformance runner): the same strict rules, its own table. */
export function parseFlags(argv: string[], known: Record<string, Kind>): Omit<ParsedArgs, 'command'> {
  let parsed: ReturnType<typeof parseWithNode>
  try {
    parsed = parseWithNode({
      args: argv,
      options: Object.fromEntries(Object.entries(known).map(([name, type]) => [name, { type }])),
      strict: true,
      allowPositionals: true,
    })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const flags = new Map<string, string>()
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string' || typeof value === 'boolean') flags.set(name, String(value))
  }
  return { positional: parsed.positionals, flags }
}

export function intFlag(args: ParsedArgs, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = args.flags.get(name)
  if (v === undefined) return fallback
  const n = /^\d+$/.test(v) ? Number(v) : Number.NaN
  if (!Number.isSafeInteger(n) || n > max) throw new UsageError(`--${name}: expected an integer from 0 to ${max}, got "${v}"`)
  return n
}

export function portFlag(args: ParsedArgs, name: string, fallback: number): number {
  return intFlag(args, name, fallback, 65535)
}

/** A duration in geth's style (`5s`, `500ms`, `1m`) or plain seconds; milliseconds. */
export function durationFlag(args: ParsedArgs, name: string, fallbackMs: number): number {
  const v = args.flags.get(name)
  if (v === undefined) return fallbackMs
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(v)
  if (m === null) throw new UsageError(`--${name}: expected a duration such as 5s or 500ms, got "${v}"`)
  const n = Number(m[1])
  return m[2] === 'ms' ? n : m[2] === 'm' ? n * 60_000 : n * 1000
}

/** --log.level: one of the logger's levels (default info). */
export function logLevelFlag(args: ParsedArgs): LogLevel {
  const v = args.flags.get('log.level') ?? 'info'
  if (!(LOG_LEVELS as readonly string[]).includes(v)) throw new UsageError(`--log.level: expected one of ${LOG_LEVELS.join(', ')}, got "${v}"`)
  return v as LogLevel
}

export function stringFlag(args: ParsedArgs, name: string, fallback: string): string {
  return args.flags.get(name) ?? fallback
}

/** A comma-separated list flag; empty entries dropped. */
export function listFlag(args: ParsedArgs, name: string, fallback: string): string[] {
  return stringFlag(args, name, fallback)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}
