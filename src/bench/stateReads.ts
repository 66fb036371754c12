import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { type BesideAnvilOptions, type BesideAnvilRow, measureBesideAnvil, startBoth } from './anvil.js'
import { mineOne, recipient, rpcClient, signTxs } from './chainGen.js'

// bench:load's state reads against anvil in the same run (issue 21 item 9's workloads): eth_getBalance,
// eth_getTransactionCount, eth_getCode and eth_getStorageAt at latest over many accounts, and batches of 100
// eth_getBalance of distinct addresses, on the same genesis and block, with the replies of both compared.

const ACCOUNTS = 2000
const CONTRACT = '0x00000000000000000000000000000000000c0de5'
const word = (v: bigint | number) => `0x${BigInt(v).toString(16).padStart(64, '0')}`
const account = (i: number) => `0x${(0xb0000000 + i).toString(16).padStart(40, '0')}`

function genesis() {
  const g = devGenesis()
  for (let i = 0; i < ACCOUNTS; i++) g.alloc[account(i)] = { balance: `0x${(BigInt(i + 1) * 10n ** 15n).toString(16)}` }
  const storage: Record<string, string> = {}
  for (let i = 0; i < ACCOUNTS; i++) storage[word(i)] = word(i + 1)
  g.alloc[CONTRACT] = { balance: '0x0', code: '0x600160005500', storage }
  return g
}

export const STATE_READS = ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt', 'eth_getBalance batch of 100']

export async function runStateReads(opts: BesideAnvilOptions): Promise<BesideAnvilRow[]> {
  const g = genesis()
  const { node, engine, anvil, stop } = await startBoth({ ...opts, name: 'state', genesis: g, apis: 'eth,net,web3' })
  try {
    // One block on both, so that `latest` is a block each made (and Sponge's flat table is at it).
    const [raw] = signTxs(new ChainSpec(g), 1, () => ({ to: recipient(1), value: 1n, gasLimit: 21_000n }))
    for (const url of [node.httpUrl, anvil.url]) await rpcClient(url)('eth_sendRawTransaction', [raw])
    await mineOne(engine, rpcClient(node.httpUrl))
    const call = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', id, method, params })
    const body = (method: string, params: unknown[]) => JSON.stringify(call(method, params))
    const some = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i))
    const workloads = [
      { name: 'eth_getBalance', bodies: some(1000, (i) => body('eth_getBalance', [account(i), 'latest'])) },
      { name: 'eth_getTransactionCount', bodies: some(1000, (i) => body('eth_getTransactionCount', [account(i), 'latest'])) },
      { name: 'eth_getCode', bodies: [body('eth_getCode', [CONTRACT, 'latest'])] },
      { name: 'eth_getStorageAt', bodies: some(1000, (i) => body('eth_getStorageAt', [CONTRACT, word(i), 'latest'])) },
      {
        name: 'eth_getBalance batch of 100',
        bodies: some(20, (b) =>
          JSON.stringify(Array.from({ length: 100 }, (_, i) => call('eth_getBalance', [account((b * 100 + i) % ACCOUNTS), 'latest'], i))),
        ),
      },
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
