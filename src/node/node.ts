import type { ChainSpec } from '../chain/spec.js'
import { genesisBlock } from '../exec/genesis.js'
import { handleBody } from '../rpc/envelope.js'
import { type HttpServer, startHttpServer } from '../rpc/httpServer.js'
import type { Namespace } from '../rpc/methodTable.js'
import { ethMethods } from '../rpc/methods/index.js'
import { ChainReader } from '../store/chainReader.js'
import { ChainStore } from '../store/chainStore.js'
import { WorkerPool } from '../workers/pool.js'
import type { NodeContext } from './context.js'
import { importFile } from './importFile.js'

export interface NodeOptions {
  datadir: string
  importFile?: string
  http: { host: string; port: number; apis: Namespace[] }
  workers: number
  maxQueue: number
  maxBodyBytes: number
  maxBatch: number
  log: (line: string) => void
  showProgress: boolean
}

export interface RunningNode {
  context: NodeContext
  httpPort: number
  close(): Promise<void>
}

export const CLIENT_VERSION = 'Sponge/v0.1.0/linux-x64/node20'

/** Opens the store (creating genesis), imports a chain file if given, starts the pool and the HTTP endpoint. */
export async function startNode(spec: ChainSpec, opts: NodeOptions): Promise<RunningNode> {
  const store = new ChainStore(opts.datadir)
  const genesis = await genesisBlock(spec, store)
  if (opts.importFile !== undefined) await importFile(spec, store, opts.importFile, opts.showProgress, opts.log)
  const pool = new WorkerPool(
    { datadir: opts.datadir, genesisJson: JSON.stringify(spec.genesis) },
    { threads: opts.workers, maxQueue: opts.maxQueue },
  )
  const context: NodeContext = {
    spec,
    store,
    chain: new ChainReader(store),
    pool,
    genesisHash: genesis.hash(),
    clientVersion: CLIENT_VERSION,
  }
  const table = ethMethods()
  const namespaces = new Set<Namespace>(opts.http.apis)
  const onInternalError = (method: string, e: unknown) =>
    opts.log(`internal error in ${method}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`)
  let http: HttpServer
  try {
    http = await startHttpServer({
      host: opts.http.host,
      port: opts.http.port,
      maxBodyBytes: opts.maxBodyBytes,
      handle: (body) => handleBody(body, table, { maxBatch: opts.maxBatch, namespaces, onInternalError }, context),
    })
  } catch (e) {
    await pool.close()
    await store.close()
    throw e
  }
  opts.log(`HTTP JSON-RPC on http://${opts.http.host}:${http.port} (${opts.http.apis.join(',')})`)
  return {
    context,
    httpPort: http.port,
    async close() {
      http.close()
      await pool.close()
      await store.close()
    },
  }
}
