#!/usr/bin/env node
// First: it sets a V8 flag that must be in place before the other modules load (see the module).
import '../node/heapGrowth.js'
import { indexStoredLogs } from '../logs/backfill.js'
import { genesisBlock } from '../state/genesis.js'
import { ImportError } from '../import/importChain.js'
import { importFile } from '../import/importFile.js'
import { checkChainFile } from '../store/chainFileCheck.js'
import { ChainStore } from '../store/chainStore.js'
import { lockDatadir } from '../store/datadirLock.js'
import { stderrLogger } from '../util/logger.js'
import { type ParsedArgs, UsageError } from './args.js'
import { DATADIR, DEV_DATADIR, flag, parseArgs, usage } from './flags.js'
import { loadSpec } from './loadSpec.js'
import { runNode } from './nodeCommand.js'
import { runReader } from './readerCommand.js'

/** --log.level debug: a fatal error also prints its stack. */
let debugLogging = false

async function main(argv: string[]): Promise<number> {
  const args: ParsedArgs = parseArgs(argv)
  debugLogging = args.flags.get('log.level') === 'debug'
  if (args.flags.has('help') || args.command === undefined) {
    process.stdout.write(`${usage()}\n`)
    return args.command === undefined && !args.flags.has('help') ? 2 : 0
  }
  const chain = flag(args, 'chain')
  const spec = loadSpec(chain)
  const datadir = flag(args, 'datadir') ?? (chain === 'dev' ? DEV_DATADIR : DATADIR)
  switch (args.command) {
    case 'import': {
      const file = args.positional[0]
      if (file === undefined || args.positional.length > 1) throw new UsageError('sponge import takes one chain file')
      const lock = await lockDatadir(datadir)
      // Before LMDB maps it: a damaged chain.mdb is an error naming the file, not a SIGSEGV or SIGBUS.
      checkChainFile(datadir)
      const store = new ChainStore(datadir)
      try {
        await genesisBlock(spec, store)
        indexStoredLogs(store)
        await importFile(spec, store, file, !flag(args, 'no-progress'), stderrLogger(flag(args, 'log.level')))
      } finally {
        await store.close()
        await lock.release()
      }
      return 0
    }
    case 'node':
      return runNode(spec, datadir, args)
    case 'rpc':
      return runReader(spec, datadir, args)
    default:
      throw new UsageError(`unknown command ${args.command}`)
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // Exit now: idle keep-alive client connections would otherwise hold uWS's loop open for seconds.
    process.exit(code)
  },
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message}\n${usage()}\n`)
      process.exit(2)
    }
    // One line for the operator, as geth's "Fatal: …", and at once: whatever is still open (a listening socket, the
    // worker pool) must not keep a process that failed to start alive. The stack only at --log.level debug.
    const message = e instanceof Error ? e.message : String(e)
    process.stderr.write(e instanceof ImportError ? `import stopped: ${message}\n` : `fatal: ${message.split('\n')[0]}\n`)
    if (debugLogging && e instanceof Error && e.stack !== undefined) process.stderr.write(`${e.stack}\n`)
    process.exit(1)
  },
)
