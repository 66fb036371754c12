import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { type BesideAnvilOptions, type BesideAnvilRow, measureBesideAnvil, startBoth } from './anvil.js'
import { mineOne, rpcClient, signTxs } from './chainGen.js'
import { assemble } from '../testing/asm.js'

// bench:load's log and fee reads against anvil in the same run: a chain of BLOCKS blocks, one transaction each,
// every tenth calling a rare emitter and the rest a noisy one; then eth_getLogs for the rare address over the
// whole range, eth_feeHistory, the tip oracle at the head (eth_maxPriorityFeePerGas, eth_gasPrice), and eth_chainId
// as both transports' ceiling (a constant reply: what a read costs with no work of its own). Both servers get the
// same signed transactions, so transaction hashes, block numbers and log indexes agree; block hashes and timestamps
// do not (the headers differ), so they are left out of the reply comparison.

const BLOCKS = 2000
const RARE = '0x00000000000000000000000000000000000e4a7e'
const NOISY = '0x000000000000000000000000000000000000a015'
const TOPIC = `0x${'5e'.repeat(32)}` as const

/** The workloads' names, for bench:load's --only. */
export const LOG_READS = ['eth_getLogs rare address', 'eth_feeHistory', 'eth_maxPriorityFeePerGas', 'eth_gasPrice', 'transport: eth_chainId']

/** LOG1(TOPIC) with the block number as data. */
const EMITTER = assemble(['NUMBER', '0x00', 'MSTORE', TOPIC, '0x20', '0x00', 'LOG1', 'STOP'])

function withoutHeaderFields(result: unknown): unknown {
  if (!Array.isArray(result)) return result
  return result.map((l: Record<string, unknown>) => ({ ...l, blockHash: undefined, blockTimestamp: undefined }))
}

export async function runLogReads(opts: BesideAnvilOptions): Promise<BesideAnvilRow[]> {
  const g = devGenesis()
  g.alloc[RARE] = { balance: '0x0', code: EMITTER }
  g.alloc[NOISY] = { balance: '0x0', code: EMITTER }
  const { node, engine, anvil, stop } = await startBoth({ ...opts, name: 'logs', genesis: g, apis: 'eth,net,web3' })
  try {
    const raws = signTxs(new ChainSpec(g), BLOCKS, (i) => ({ to: i % 10 === 0 ? RARE : NOISY, gasLimit: 50_000n }))
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
      // The head does not move while these run: a node may answer from what it worked out for that head.
      { name: 'eth_maxPriorityFeePerGas', bodies: [body('eth_maxPriorityFeePerGas', [])] },
      { name: 'eth_gasPrice', bodies: [body('eth_gasPrice', [])] },
      { name: 'transport: eth_chainId', bodies: [body('eth_chainId', [])] },
    ].filter((w) => opts.only === undefined || opts.only.test(w.name))
    return await measureBesideAnvil({
      ...opts,
      spongeUrl: node.httpUrl,
      anvilUrl: anvil.url,
      spongePid: node.process.pid,
      anvilPid: anvil.proc.pid,
      workloads,
    })
  } finally {
    await stop()
  }
}
