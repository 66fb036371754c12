import { MULTICALL3_ADDRESS } from '../chain/multicall3.js'
import { join } from 'node:path'
import { DEV_MNEMONIC, devAccounts } from '../chain/dev.js'
import type { ChainSpec } from '../chain/spec.js'
import { startNode } from '../node/node.js'
import type { Namespace } from '../rpc/methodTable.js'
import { defaultPoolSize } from '../workers/pool.js'
import { stderrLogger } from '../util/logger.js'
import { type ParsedArgs, UsageError, durationFlag, intFlag, listFlag, logLevelFlag, portFlag, stringFlag } from './args.js'

const KNOWN_APIS: readonly Namespace[] = ['eth', 'net', 'web3', 'debug', 'txpool', 'testing']

function parseApis(args: ParsedArgs): Namespace[] {
  const apis = listFlag(args, 'http.api', 'eth,net,web3')
  for (const a of apis) {
    if (!(KNOWN_APIS as readonly string[]).includes(a)) throw new UsageError(`--http.api: unknown namespace ${a}`)
  }
  return apis as Namespace[]
}

/** `sponge node`: runs until SIGINT/SIGTERM, then stops accepting, finishes what it received, and closes. */
export async function runNode(spec: ChainSpec, datadir: string, args: ParsedArgs): Promise<number> {
  const log = stderrLogger(logLevelFlag(args))
  if (args.positional.length > 0) throw new UsageError(`sponge node takes no arguments, got ${args.positional.join(' ')}`)
  const importFile = args.flags.get('import')
  const isDev = stringFlag(args, 'chain', 'dev') === 'dev'
  const period = args.flags.get('dev.period')
  const node = await startNode(spec, {
    datadir,
    ...(importFile === undefined ? {} : { importFile }),
    http: {
      host: stringFlag(args, 'http.addr', '127.0.0.1'),
      port: portFlag(args, 'http.port', 8545),
      apis: parseApis(args),
      vhosts: listFlag(args, 'http.vhosts', 'localhost'),
      corsOrigins: listFlag(args, 'http.corsdomain', ''),
    },
    authrpc: {
      host: stringFlag(args, 'authrpc.addr', '127.0.0.1'),
      port: portFlag(args, 'authrpc.port', 8551),
      jwtSecretPath: stringFlag(args, 'authrpc.jwtsecret', join(datadir, 'jwt.hex')),
      vhosts: listFlag(args, 'authrpc.vhosts', 'localhost'),
    },
    workers: intFlag(args, 'workers', defaultPoolSize()),
    engineWorkers: intFlag(args, 'workers.engine', 1),
    maxQueue: intFlag(args, 'rpc.maxqueue', 1024),
    maxBodyBytes: intFlag(args, 'rpc.maxbodysize', 5 * 1024 * 1024),
    maxBatch: intFlag(args, 'rpc.batchlimit', 1000),
    minerGasLimit: BigInt(intFlag(args, 'miner.gaslimit', 60_000_000)),
    txPoolSize: intFlag(args, 'txpool.size', 4096),
    gasCap: BigInt(intFlag(args, 'rpc.gascap', 50_000_000)),
    evmTimeoutMs: durationFlag(args, 'rpc.evmtimeout', 5_000),
    logsMaxRange: intFlag(args, 'rpc.logs.maxrange', 100_000),
    logsMaxResults: intFlag(args, 'rpc.logs.maxresults', 10_000),
    txPoolAccountSlots: intFlag(args, 'txpool.accountslots', 1024),
    ...((isDev || period !== undefined) && !args.flags.has('no-mining')
      ? { dev: period === undefined ? {} : { period: intFlag(args, 'dev.period', 0) } }
      : {}),
    ...(args.flags.has('metrics')
      ? { metrics: { host: stringFlag(args, 'metrics.addr', '127.0.0.1'), port: portFlag(args, 'metrics.port', 6060) } }
      : {}),
    ...(isDev ? { devAccounts: devAccounts() } : {}),
    log,
    showProgress: !args.flags.has('no-progress'),
  })
  if (isDev) {
    // For the person at the terminal, not for a log collector: plain text.
    const lines = devAccounts().map((a, i) => `  (${i}) ${a.address} key ${a.privateKey}`)
    const host = stringFlag(args, 'http.addr', '127.0.0.1')
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
