import { availableParallelism } from 'node:os'
import { NODE_DEFAULTS, READER_DEFAULTS } from '../node/defaults.js'
import type { Namespace } from '../rpc/methodTable.js'
import { LOG_LEVELS } from '../util/logger.js'
import { type FlagSpec, type ParsedArgs, UsageError, defaultOf, defaultText, parseFlags, readFlag } from './args.js'

/** The commands of `sponge`. */
export type Command = 'node' | 'import' | 'rpc'

export interface SpongeFlag extends FlagSpec {
  /** The commands that take the flag. */
  readonly commands: readonly Command[]
}

const ALL: readonly Command[] = ['node', 'import', 'rpc']
const NODE: readonly Command[] = ['node']
/** The serving flags, of the node and of its readers. */
const SERVING: readonly Command[] = ['node', 'rpc']
const RPC: readonly Command[] = ['rpc']

/** The namespaces --http.api may name. */
const HTTP_APIS: readonly Namespace[] = ['eth', 'net', 'web3', 'debug', 'txpool', 'testing']

/** --datadir when it is not given. */
export const DEV_DATADIR = '.sponge/dev'
export const DATADIR = '.sponge/data'

/** --workers: a few threads per core at most (each one holds a state cache), and never more than 256. */
export const MAX_WORKERS = Math.min(256, 4 * availableParallelism())
/** --http.threads: one per core is the aim; a few more for a machine that shares its cores. */
const MAX_HTTP_THREADS = Math.min(256, 4 * availableParallelism())
/** geth's MinGasLimit: the node never builds below it (exec/gasLimit.ts), so a smaller target is a mistake. */
const MIN_GAS_LIMIT = 5000
/** A plain transfer's gas: a smaller --rpc.gascap fails every call. */
const MIN_GAS_CAP = 21_000
/** setInterval and setTimeout take at most 2^31 - 1 ms. */
const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000)

/**
 * Every flag of `sponge` (geth/reth names), in the order the usage text lists them: parseArgs's known flags, the
 * reading of each value (kind, bounds), the defaults (the node's from NODE_DEFAULTS) and the usage text all come
 * from this table.
 */
export const FLAGS = {
  chain: {
    commands: ALL,
    kind: 'string',
    arg: 'genesis.json|dev',
    default: 'dev',
    help: 'the chain: a geth-style genesis file, or the dev chain',
  },
  datadir: {
    commands: ALL,
    kind: 'string',
    arg: 'dir',
    defaultText: `${DEV_DATADIR} for --chain dev, else ${DATADIR}`,
    help: 'the database directory',
  },
  'log.level': {
    commands: ALL,
    kind: 'enum',
    values: LOG_LEVELS,
    arg: 'level',
    default: 'info',
    help: `JSON log lines on stderr at or above: ${LOG_LEVELS.join('|')}`,
  },
  'no-progress': {
    commands: ALL,
    kind: 'boolean',
    help: 'no progress bars while importing',
  },
  help: {
    commands: ALL,
    kind: 'boolean',
    help: 'print this text',
  },
  import: {
    commands: NODE,
    kind: 'string',
    arg: 'chain.rlp',
    help: 'import this chain file before serving',
  },
  'http.addr': {
    commands: SERVING,
    kind: 'string',
    arg: 'host',
    default: NODE_DEFAULTS.http.host,
    help: 'JSON-RPC and WebSocket address',
  },
  'http.port': {
    commands: SERVING,
    kind: 'port',
    arg: 'port',
    default: NODE_DEFAULTS.http.port,
    help: 'JSON-RPC and WebSocket port, 0 for any free one',
  },
  'http.api': {
    commands: SERVING,
    kind: 'list',
    values: HTTP_APIS,
    arg: 'ns,...',
    default: NODE_DEFAULTS.http.apis,
    help: `namespaces served, of ${HTTP_APIS.join(',')}`,
  },
  'http.vhosts': {
    commands: SERVING,
    kind: 'list',
    arg: 'host,...',
    default: NODE_DEFAULTS.http.vhosts,
    help: 'Host names a request may address (IPs pass; * any)',
  },
  'http.corsdomain': {
    commands: SERVING,
    kind: 'list',
    arg: 'origin,...',
    default: NODE_DEFAULTS.http.corsOrigins,
    help: 'browser origins that may read replies and open WebSockets',
  },
  'authrpc.addr': {
    commands: NODE,
    kind: 'string',
    arg: 'host',
    default: NODE_DEFAULTS.authrpc.host,
    help: 'Engine API address',
  },
  'authrpc.port': {
    commands: NODE,
    kind: 'port',
    arg: 'port',
    default: NODE_DEFAULTS.authrpc.port,
    help: 'Engine API port, 0 for any free one',
  },
  'authrpc.jwtsecret': {
    commands: NODE,
    kind: 'string',
    arg: 'file',
    defaultText: `<datadir>/${NODE_DEFAULTS.authrpc.jwtSecretFile}, created if missing`,
    help: "the Engine API's JWT secret, hex",
  },
  'authrpc.vhosts': {
    commands: NODE,
    kind: 'list',
    arg: 'host,...',
    default: NODE_DEFAULTS.authrpc.vhosts,
    help: 'Host names an Engine API request may address',
  },
  'http.threads': {
    commands: SERVING,
    kind: 'int',
    arg: 'n',
    min: 1,
    max: MAX_HTTP_THREADS,
    default: NODE_DEFAULTS.httpThreads,
    defaultText: 'one per core',
    help: 'threads serving the JSON-RPC port; more than 1 share it and hand the main thread what only it does: writes, the Engine API, forwarding',
  },
  workers: {
    commands: SERVING,
    kind: 'int',
    arg: 'n',
    min: 1,
    max: MAX_WORKERS,
    default: NODE_DEFAULTS.workers,
    defaultText: 'cores - 1',
    help: 'worker threads of the public lane: state reads, calls (sponge node starts them when calls need them)',
  },
  'workers.engine': {
    commands: NODE,
    kind: 'int',
    arg: 'n',
    min: 1,
    max: 64,
    default: NODE_DEFAULTS.engineWorkers,
    help: 'worker threads reserved for the Engine API',
  },
  'miner.gaslimit': {
    commands: NODE,
    kind: 'int',
    arg: 'gas',
    min: MIN_GAS_LIMIT,
    default: Number(NODE_DEFAULTS.minerGasLimit),
    help: 'the gas limit built blocks move toward',
  },
  'dev.period': {
    commands: NODE,
    kind: 'int',
    arg: 's',
    min: 0,
    max: MAX_TIMER_SECONDS,
    defaultText: 'a block per transaction',
    help: 'dev mode, on any chain: a block every <s> seconds',
  },
  'no-mining': {
    commands: NODE,
    kind: 'boolean',
    help: 'no dev mode: blocks come through the Engine API only',
  },
  'no-warmup': {
    commands: NODE,
    kind: 'boolean',
    help: "start without first running blocks of its own to compile the block path (~1 s of CPU): the Engine API's workers, or dev mode's main thread",
  },
  'no-kzg-preload': {
    commands: SERVING,
    kind: 'boolean',
    help: "no KZG thread loading c-kzg's trusted setup (~3 s of CPU) once the port serves: the node loads it at its first blob transaction, a reader's threads each at its first point evaluation",
  },
  'no-precompile-cache': {
    commands: SERVING,
    kind: 'boolean',
    help: "run every precompile call, not keeping the costly ones' results by input (as reth's --engine.disable-precompile-cache)",
  },
  'txpool.size': {
    commands: NODE,
    kind: 'int',
    arg: 'n',
    min: 1,
    max: 1_000_000,
    default: NODE_DEFAULTS.txPoolSize,
    help: 'the most transactions in the pool',
  },
  'txpool.accountslots': {
    commands: NODE,
    kind: 'int',
    arg: 'n',
    min: 1,
    max: 1_000_000,
    default: NODE_DEFAULTS.txPoolAccountSlots,
    help: 'the most transactions one sender may pool',
  },
  'rpc.maxqueue': {
    commands: SERVING,
    kind: 'int',
    arg: 'n',
    min: 1,
    max: 1_000_000,
    default: NODE_DEFAULTS.maxQueue,
    help: 'public calls admitted and not yet answered; past it, -32005',
  },
  'rpc.maxbodysize': {
    commands: SERVING,
    kind: 'int',
    arg: 'bytes',
    min: 1024,
    max: 1024 ** 3,
    default: NODE_DEFAULTS.maxBodyBytes,
    help: 'the largest request body or WebSocket message',
  },
  'rpc.batchlimit': {
    commands: SERVING,
    kind: 'int',
    arg: 'n',
    min: 1,
    max: 100_000,
    default: NODE_DEFAULTS.maxBatch,
    help: 'the most calls in one batch',
  },
  'rpc.max-response-size': {
    commands: SERVING,
    kind: 'int',
    arg: 'bytes',
    min: 1024,
    max: 1024 ** 3,
    default: NODE_DEFAULTS.maxReplyBytes,
    help: 'the largest reply to one call; past it, -32003 response too large',
  },
  'rpc.batch-response-max-size': {
    commands: SERVING,
    kind: 'int',
    arg: 'bytes',
    min: 1024,
    max: 1024 ** 3,
    default: NODE_DEFAULTS.maxBatchReplyBytes,
    help: "a batch's reply; once past it, the calls not yet answered get -32003",
  },
  'rpc.gascap': {
    commands: SERVING,
    kind: 'int',
    arg: 'gas',
    min: MIN_GAS_CAP,
    default: Number(NODE_DEFAULTS.gasCap),
    help: 'the most gas an eth_call, estimate or simulation may use',
  },
  'rpc.evmtimeout': {
    commands: SERVING,
    kind: 'duration',
    arg: 'duration',
    min: 1,
    max: 3_600_000,
    default: NODE_DEFAULTS.evmTimeoutMs,
    help: 'an EVM call running longer is stopped with an error',
  },
  'rpc.allow-unprotected-txs': {
    commands: NODE,
    kind: 'boolean',
    help: 'accept legacy transactions without EIP-155 replay protection over RPC',
  },
  'rpc.logs.maxrange': {
    commands: SERVING,
    kind: 'int',
    arg: 'blocks',
    min: 1,
    default: NODE_DEFAULTS.logsMaxRange,
    help: 'the most blocks one eth_getLogs range may span',
  },
  'rpc.logs.maxresults': {
    commands: SERVING,
    kind: 'int',
    arg: 'n',
    min: 1,
    max: 1_000_000,
    default: NODE_DEFAULTS.logsMaxResults,
    help: 'the most logs one query may return',
  },
  'health.maxage': {
    commands: SERVING,
    kind: 'int',
    arg: 's',
    min: 0,
    max: 1_000_000_000,
    defaultText: `${NODE_DEFAULTS.healthMaxAge}; dev mode: 0, or 2x --dev.period if more; sponge rpc --chain dev: 0`,
    help: 'GET /health: stale (503) once the head is older; 0 never',
  },
  'rpc.upstream': {
    commands: RPC,
    kind: 'string',
    arg: 'url',
    defaultText: 'none: sends are refused',
    help: "the node's JSON-RPC URL, where transactions sent to the reader go",
  },
  'health.maxlag': {
    commands: RPC,
    kind: 'int',
    arg: 'blocks',
    min: 0,
    max: 1_000_000,
    default: READER_DEFAULTS.healthMaxLag,
    help: "GET /health: stale (503) once the head taken in is more blocks behind the store's",
  },
  metrics: {
    commands: SERVING,
    kind: 'boolean',
    help: 'serve Prometheus metrics at http://<metrics.addr>:<metrics.port>/metrics',
  },
  'metrics.addr': {
    commands: SERVING,
    kind: 'string',
    arg: 'host',
    default: NODE_DEFAULTS.metrics.host,
    help: 'metrics address',
  },
  'metrics.port': {
    commands: SERVING,
    kind: 'port',
    arg: 'port',
    default: NODE_DEFAULTS.metrics.port,
    help: 'metrics port, 0 for any free one',
  },
} as const satisfies Record<string, SpongeFlag>

export type FlagName = keyof typeof FLAGS
type Spec<N extends FlagName> = (typeof FLAGS)[N]
interface KindValues {
  string: string
  boolean: boolean
  int: number
  port: number
  duration: number
  list: string[]
  enum: string
}
type ValueOf<S> = S extends { kind: 'enum'; values: readonly (infer V)[] }
  ? V
  : S extends { kind: infer K extends keyof KindValues }
    ? KindValues[K]
    : never
/** What flag() reads: the kind's value; undefined too where the flag has no default (a boolean is false). */
export type FlagValue<N extends FlagName> = ValueOf<Spec<N>> | (Spec<N> extends { kind: 'boolean' } | { default: unknown } ? never : undefined)

const COMMANDS: readonly Command[] = ALL

/** The flags a command takes, for node:util's parseArgs. */
function knownFlags(command: Command): Record<string, 'string' | 'boolean'> {
  return Object.fromEntries(
    Object.entries(FLAGS as Record<string, SpongeFlag>)
      .filter(([, f]) => f.commands.includes(command))
      .map(([name, f]) => [name, f.kind === 'boolean' ? 'boolean' : 'string']),
  )
}

/**
 * `sponge <command> [--flag value | --flag=value | --bool]…`, parsed strictly: an unknown flag, a missing value, or a
 * value its kind or bounds refuse is a UsageError naming the flag.
 */
export function parseArgs(argv: string[]): ParsedArgs {
  const [first, ...rest] = argv
  if (first === undefined || first === '--help' || first === '-h') {
    return { command: undefined, positional: [], flags: new Map(first === undefined ? [] : [['help', 'true']]) }
  }
  if (!(COMMANDS as readonly string[]).includes(first)) throw new UsageError(`unknown command ${first}`)
  const parsed = { command: first, ...parseFlags(rest, knownFlags(first as Command)) }
  for (const [name, raw] of parsed.flags) readFlag(name, (FLAGS as Record<string, SpongeFlag>)[name]!, raw)
  return parsed
}

/** A flag's value: as given, read by its kind, or its default. */
export function flag<N extends FlagName>(args: ParsedArgs, name: N): FlagValue<N> {
  const spec: SpongeFlag = FLAGS[name]
  const raw = args.flags.get(name)
  return (raw === undefined ? defaultOf(spec) : readFlag(name, spec, raw)) as FlagValue<N>
}

/** The usage text: every command and every flag with its default, from the table. */
export function usage(): string {
  const flags = Object.entries(FLAGS as Record<string, SpongeFlag>)
  const shown = (name: string, f: SpongeFlag) => `--${name}${f.arg === undefined ? '' : ` <${f.arg}>`}`
  const width = Math.max(...flags.map(([name, f]) => shown(name, f).length))
  const line = ([name, f]: [string, SpongeFlag]) => {
    const d = defaultText(f)
    return `  ${shown(name, f).padEnd(width)}  ${f.help}${d === undefined ? '' : ` (default ${d})`}`
  }
  const section = (title: string, commands: readonly Command[]) => [
    '',
    `${title}:`,
    ...flags.filter(([, f]) => f.commands.length === commands.length && commands.every((c) => f.commands.includes(c))).map(line),
  ]
  return [
    'usage:',
    '  sponge node   [flags]              serve the chain (JSON-RPC, WebSocket, Engine API) until SIGINT/SIGTERM',
    '  sponge import [flags] <chain.rlp>  import a chain file, every block fully validated',
    "  sponge rpc    [flags]              serve a running node's datadir read-only (JSON-RPC, WebSocket) until SIGINT/SIGTERM",
    ...section('flags of every command', ALL),
    ...section('flags of sponge node and sponge rpc', SERVING),
    ...section('flags of sponge node', NODE),
    ...section('flags of sponge rpc', RPC),
  ].join('\n')
}
