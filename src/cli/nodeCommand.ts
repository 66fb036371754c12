import { MULTICALL3_ADDRESS } from '../chain/multicall3.js'
import { join } from 'node:path'
import { DEV_MNEMONIC, devAccounts } from '../chain/dev.js'
import type { ChainSpec } from '../chain/spec.js'
import { NODE_DEFAULTS } from '../node/defaults.js'
import { type NodeOptions, startNode } from '../node/node.js'
import type { Namespace } from '../rpc/methodTable.js'
import { type Logger, stderrLogger } from '../util/logger.js'
import { type ParsedArgs, UsageError } from './args.js'
import { flag } from './flags.js'

/** The node's options from the command line: each flag as given, or its default (the node's from NODE_DEFAULTS). */
export function nodeOptions(datadir: string, args: ParsedArgs, log: Logger): NodeOptions {
  if (args.positional.length > 0) throw new UsageError(`sponge node takes no arguments, got ${args.positional.join(' ')}`)
  const importFile = flag(args, 'import')
  const isDev = flag(args, 'chain') === 'dev'
  const period = flag(args, 'dev.period')
  const healthMaxAge = flag(args, 'health.maxage')
  return {
    datadir,
    ...(importFile === undefined ? {} : { importFile }),
    http: {
      host: flag(args, 'http.addr'),
      port: flag(args, 'http.port'),
      apis: flag(args, 'http.api') as Namespace[],
      vhosts: flag(args, 'http.vhosts'),
      corsOrigins: flag(args, 'http.corsdomain'),
    },
    httpThreads: flag(args, 'http.threads'),
    authrpc: {
      host: flag(args, 'authrpc.addr'),
      port: flag(args, 'authrpc.port'),
      jwtSecretPath: flag(args, 'authrpc.jwtsecret') ?? join(datadir, NODE_DEFAULTS.authrpc.jwtSecretFile),
      vhosts: flag(args, 'authrpc.vhosts'),
    },
    workers: flag(args, 'workers'),
    engineWorkers: flag(args, 'workers.engine'),
    maxQueue: flag(args, 'rpc.maxqueue'),
    maxBodyBytes: flag(args, 'rpc.maxbodysize'),
    maxBatch: flag(args, 'rpc.batchlimit'),
    maxReplyBytes: flag(args, 'rpc.max-response-size'),
    maxBatchReplyBytes: flag(args, 'rpc.batch-response-max-size'),
    minerGasLimit: BigInt(flag(args, 'miner.gaslimit')),
    txPoolSize: flag(args, 'txpool.size'),
    gasCap: BigInt(flag(args, 'rpc.gascap')),
    evmTimeoutMs: flag(args, 'rpc.evmtimeout'),
    allowUnprotectedTxs: flag(args, 'rpc.allow-unprotected-txs'),
    logsMaxRange: flag(args, 'rpc.logs.maxrange'),
    logsMaxResults: flag(args, 'rpc.logs.maxresults'),
    txPoolAccountSlots: flag(args, 'txpool.accountslots'),
    ...(healthMaxAge === undefined ? {} : { healthMaxAge }),
    ...((isDev || period !== undefined) && !flag(args, 'no-mining') ? { dev: period === undefined ? {} : { period } } : {}),
    ...(flag(args, 'metrics') ? { metrics: { host: flag(args, 'metrics.addr'), port: flag(args, 'metrics.port') } } : {}),
    ...(isDev ? { devAccounts: devAccounts() } : {}),
    log,
    showProgress: !flag(args, 'no-progress'),
    kzgAtStart: !flag(args, 'no-kzg-preload'),
    precompileCache: !flag(args, 'no-precompile-cache'),
    warmUpBlocks: !flag(args, 'no-warmup'),
    settleWhenQuiet: true,
  }
}

/** `sponge node`: runs until SIGINT/SIGTERM, then stops accepting, finishes what it received, and closes. */
export async function runNode(spec: ChainSpec, datadir: string, args: ParsedArgs): Promise<number> {
  const log = stderrLogger(flag(args, 'log.level'))
  const opts = nodeOptions(datadir, args, log)
  const node = await startNode(spec, opts)
  const isDev = flag(args, 'chain') === 'dev'
  if (isDev) {
    // For the person at the terminal, not for a log collector: plain text.
    const lines = devAccounts().map((a, i) => `  (${i}) ${a.address} key ${a.privateKey}`)
    const host = opts.http.host
    process.stderr.write(
      `dev chain ${spec.chainId}; accounts from mnemonic "${DEV_MNEMONIC}":\n${lines.join('\n')}\n` +
        `connect: RPC URL http://${host}:${node.httpPort} (WebSocket ws://${host}:${node.httpPort}), chain ID ${spec.chainId}; ` +
        `Multicall3 at ${MULTICALL3_ADDRESS}\n`,
    )
  }
  log.info('serving')
  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  log.info('shutting down: finishing requests already received')
  await node.close()
  log.info('stopped')
  return 0
}
