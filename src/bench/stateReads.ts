import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { type BesideAnvilOptions, type BesideAnvilRow, measureBesideAnvil, startBoth } from './anvil.js'
import { mineOne, recipient, rpcClient, sendAll, signTxs } from './chainGen.js'

// bench:load's state reads against anvil in the same run (issue 21 item 9's workloads): eth_getBalance,
// eth_getTransactionCount, eth_getCode and eth_getStorageAt at latest over many accounts, and batches of 100
// eth_getBalance of distinct addresses, on the same genesis and block, with the replies of both compared; and the
// receipts of that block's transfers (issue 32 item 5).

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

const RECEIPTS = 'eth_getTransactionReceipt of 200 transfers'
export const STATE_READS = ['eth_getBalance', 'eth_getTransactionCount', 'eth_getCode', 'eth_getStorageAt', 'eth_getBalance batch of 100', RECEIPTS]

/**
 * A receipt without what differs by construction (anvil mines each transfer in a block of its own, Sponge the 200 in
 * one) and what anvil adds to every receipt (blobGasPrice, blockTimestamp), its keys in one order.
 */
function receiptWithoutBlock(r: unknown): unknown {
  if (typeof r !== 'object' || r === null) return r
  const { blockHash, blockNumber, blockTimestamp, transactionIndex, cumulativeGasUsed, effectiveGasPrice, blobGasPrice, ...rest } = r as Record<
    string,
    unknown
  >
  return Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)))
}

export async function runStateReads(opts: BesideAnvilOptions): Promise<BesideAnvilRow[]> {
  const g = genesis()
  const { node, engine, anvil, stop } = await startBoth({ ...opts, name: 'state', genesis: g, apis: 'eth,net,web3' })
  try {
    // A block of 200 transfers on both (anvil mines a block a transfer), so that `latest` is a block each made (and
    // Sponge's flat table is at it) and the receipts are the same transfers'.
    const raws = signTxs(new ChainSpec(g), 200, (i) => ({ to: recipient(i), value: 1n, gasLimit: 21_000n }))
    const hashes = await sendAll(node.httpUrl, raws)
    await sendAll(anvil.url, raws)
    // anvil mines what it was sent in blocks of its own, a moment after it answers.
    for (let i = 0; i < 200 && (await rpcClient(anvil.url)('eth_getTransactionReceipt', [hashes.at(-1)])) === null; i++)
      await new Promise((r) => setTimeout(r, 50))
    const mined = await mineOne(engine, rpcClient(node.httpUrl))
    if (mined.transactions !== raws.length) throw new Error(`the state bench's block holds ${mined.transactions} of ${raws.length} transfers`)
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
      { name: RECEIPTS, bodies: hashes.map((h) => body('eth_getTransactionReceipt', [h])), normalize: receiptWithoutBlock },
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
