import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { spawnNode } from '../conformance/spawnNode.js'
import { type BesideAnvilRow, measureBesideAnvil, startAnvil } from './anvil.js'
import { type Rpc, mineOne, rpcClient, signTxs } from './chainGen.js'
import { assemble } from './workloads/asm.js'

// bench:load's log and fee reads against anvil in the same run: a chain of BLOCKS blocks, one transaction each,
// every tenth calling a rare emitter and the rest a noisy one; then eth_getLogs for the rare address over the
// whole range, and eth_feeHistory. Both servers get the same signed transactions, so transaction hashes, block
// numbers and log indexes agree; block hashes and timestamps do not (the headers differ), so they are left out of
// the reply comparison.

const BLOCKS = 2000
const RARE = '0x00000000000000000000000000000000000e4a7e'
const NOISY = '0x000000000000000000000000000000000000a015'
const TOPIC = `0x${'5e'.repeat(32)}` as const

/** LOG1(TOPIC) with the block number as data. */
const EMITTER = assemble(['NUMBER', '0x00', 'MSTORE', TOPIC, '0x20', '0x00', 'LOG1', 'STOP'])

function withoutHeaderFields(result: unknown): unknown {
  if (!Array.isArray(result)) return result
  return result.map((l: Record<string, unknown>) => ({ ...l, blockHash: undefined, blockTimestamp: undefined }))
}

export async function runLogReads(opts: {
  wrk: string
  work: string
  cli: string | undefined
  connections: number[]
  seconds: number
  only: RegExp | undefined
  log: (l: string) => void
}): Promise<BesideAnvilRow[]> {
  const g = devGenesis()
  g.alloc[RARE] = { balance: '0x0', code: EMITTER }
  g.alloc[NOISY] = { balance: '0x0', code: EMITTER }
  const file = join(opts.work, 'logs-genesis.json')
  writeFileSync(file, JSON.stringify(g))
  const jwt = join(opts.work, 'jwt-logs.hex')
  const secret = Buffer.alloc(32, 9)
  writeFileSync(jwt, secret.toString('hex'))
  const node = await spawnNode(
    ['--chain', file, '--datadir', join(opts.work, 'logs'), '--http.api', 'eth,net,web3', '--no-mining', '--authrpc.jwtsecret', jwt],
    120_000,
    opts.cli,
  )
  const anvil = await startAnvil(file)
  try {
    const raws = signTxs(new ChainSpec(g), BLOCKS, (i) => ({ to: i % 10 === 0 ? RARE : NOISY, gasLimit: 50_000n }))
    const engine: Rpc = rpcClient(node.authUrl!, secret)
    const [ours, theirs] = [rpcClient(node.httpUrl), rpcClient(anvil.url)]
    const started = Date.now()
    // One block per transaction on both: anvil mines each as it arrives; Sponge through its Engine API.
    for (const raw of raws) {
      await ours('eth_sendRawTransaction', [raw])
      await mineOne(engine, ours)
      await theirs('eth_sendRawTransaction', [raw])
    }
    opts.log(`log reads: ${BLOCKS} blocks made on both in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    const body = (method: string, params: unknown[]) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })
    const hex = (n: number) => `0x${n.toString(16)}`
    const workloads = [
      {
        name: 'eth_getLogs rare address',
        // Ranges ending at different heights, so no two requests are the same.
        bodies: Array.from({ length: 100 }, (_, i) => body('eth_getLogs', [{ address: RARE, fromBlock: '0x1', toBlock: hex(BLOCKS - i) }])),
        normalize: withoutHeaderFields,
      },
      {
        name: 'eth_feeHistory',
        bodies: Array.from({ length: 100 }, (_, i) => body('eth_feeHistory', [hex(20), hex(BLOCKS - i), [25, 75]])),
      },
    ].filter((w) => opts.only === undefined || opts.only.test(w.name))
    return await measureBesideAnvil({ ...opts, spongeUrl: node.httpUrl, anvilUrl: anvil.url, workloads })
  } finally {
    anvil.proc.kill()
    await node.stop()
  }
}
