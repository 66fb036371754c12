import { devAccounts } from '../chain/dev.js'
import type { ChainSpec } from '../chain/spec.js'
import { type ReaderOptions, startReader } from '../node/reader.js'
import type { Namespace } from '../rpc/methodTable.js'
import { type Logger, stderrLogger } from '../util/logger.js'
import { checkChainFile } from '../store/chainFileCheck.js'
import { datadirHeld } from '../store/datadirLock.js'
import { type ParsedArgs, UsageError } from './args.js'
import { flag } from './flags.js'

/** The reader's options from the command line: each flag as given, or its default. */
export function readerOptions(datadir: string, args: ParsedArgs, log: Logger): ReaderOptions {
  if (args.positional.length > 0) throw new UsageError(`sponge rpc takes no arguments, got ${args.positional.join(' ')}`)
  const apis = flag(args, 'http.api') as Namespace[]
  if (apis.includes('testing'))
    throw new UsageError("--http.api: testing is the node's (testing_buildBlockV1 builds on its pool); a reader does not serve it")
  const isDev = flag(args, 'chain') === 'dev'
  const upstream = flag(args, 'rpc.upstream')
  if (upstream !== undefined && !/^https?:\/\/[^/]/.test(upstream))
    throw new UsageError(`--rpc.upstream: ${upstream} is not an http:// or https:// URL`)
  const healthMaxAge = flag(args, 'health.maxage')
  return {
    datadir,
    http: {
      host: flag(args, 'http.addr'),
      port: flag(args, 'http.port'),
      // The dev chain's node serves txpool_* and evm_*: its readers forward them.
      apis: isDev ? [...new Set([...apis, 'evm' as const, 'txpool' as const])] : apis,
      vhosts: flag(args, 'http.vhosts'),
      corsOrigins: flag(args, 'http.corsdomain'),
    },
    ...(upstream === undefined ? {} : { upstream }),
    workers: flag(args, 'workers'),
    httpThreads: flag(args, 'http.threads'),
    kzgAtStart: !flag(args, 'no-kzg-preload'),
    precompileCache: !flag(args, 'no-precompile-cache'),
    maxQueue: flag(args, 'rpc.maxqueue'),
    maxBodyBytes: flag(args, 'rpc.maxbodysize'),
    maxBatch: flag(args, 'rpc.batchlimit'),
    maxReplyBytes: flag(args, 'rpc.max-response-size'),
    maxBatchReplyBytes: flag(args, 'rpc.batch-response-max-size'),
    gasCap: BigInt(flag(args, 'rpc.gascap')),
    evmTimeoutMs: flag(args, 'rpc.evmtimeout'),
    logsMaxRange: flag(args, 'rpc.logs.maxrange'),
    logsMaxResults: flag(args, 'rpc.logs.maxresults'),
    // The dev node makes a block per transaction by default: an idle dev chain's head is old with nothing wrong.
    ...(healthMaxAge === undefined ? (isDev ? { healthMaxAge: 0 } : {}) : { healthMaxAge }),
    healthMaxLag: flag(args, 'health.maxlag'),
    ...(isDev ? { devAccounts: devAccounts() } : {}),
    ...(flag(args, 'metrics') ? { metrics: { host: flag(args, 'metrics.addr'), port: flag(args, 'metrics.port') } } : {}),
    log,
  }
}

/** `sponge rpc`: serves until SIGINT/SIGTERM (waiting for the node's store first if need be), then drains and closes. */
export async function runReader(spec: ChainSpec, datadir: string, args: ParsedArgs): Promise<number> {
  const log = stderrLogger(flag(args, 'log.level'))
  const opts = readerOptions(datadir, args, log)
  const stopped = new AbortController()
  const stop = () => stopped.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  await checkStoreOfStoppedNode(datadir)
  let reader: Awaited<ReturnType<typeof startReader>>
  try {
    reader = await startReader(spec, opts, stopped.signal)
  } catch (e) {
    if (stopped.signal.aborted) return 0
    throw e
  }
  log.info('serving')
  if (!stopped.signal.aborted) await new Promise<void>((resolve) => stopped.signal.addEventListener('abort', () => resolve(), { once: true }))
  log.info('shutting down: finishing requests already received')
  await reader.close()
  log.info('stopped')
  return 0
}

/**
 * A damaged chain.mdb is an error naming the file, before LMDB maps it (as the node's and the import's), not a
 * SIGSEGV or SIGBUS. Only while no node holds the datadir: the check reads several pages, which must be one snapshot,
 * and a node that holds it has checked the file itself. A node that took the datadir while this looked is trusted too.
 */
async function checkStoreOfStoppedNode(datadir: string): Promise<void> {
  if (await datadirHeld(datadir)) return
  try {
    checkChainFile(datadir)
  } catch (e) {
    if (!(await datadirHeld(datadir))) throw e
  }
}
