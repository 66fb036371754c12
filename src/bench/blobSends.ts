import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { devGenesis } from '../chain/dev.js'
import { ChainSpec } from '../chain/spec.js'
import { devBlobTx } from '../testing/blobTx.js'
import { spawnNode } from '../testing/spawnNode.js'
import { bytesToHex } from '../util/hex.js'
import { startAnvil } from './anvil.js'
import { rpcClient } from './chainGen.js'

// bench:load's blob sends (issue 31 item 7): on a fresh dev node (a block per transaction, as `npm start`) and on
// anvil (automine), same genesis, SENDS blob transactions of one blob each, one after another: the time to the
// eth_sendRawTransaction answer and to the receipt (polled), the first send apart from the later ones. Sidecars
// of version 0 (one blob proof per blob: what most tools still send; geth converts them to cell proofs at submission,
// Sponge after it, in the background) and of version 1 (cell proofs), each on its own fresh node: once with the first send as soon as the node
// answers (the worst case: the node's start-up work still under way), once with it 10 s later (a user's script run
// after the node printed its accounts). The transactions are signed before the node starts.
// Run alone: node dist/bench/blobSends.js [--cli <main.js>]

const SENDS = 5
/** When the first send is made, after the node first answered. */
const DELAYS_MS = [0, 10_000]

export interface BlobSendRow {
  server: 'sponge' | 'anvil'
  sidecar: 0 | 1
  /** How long after the node first answered the first send was made, ms. */
  delayMs: number
  /** The first send's answer and receipt, ms. */
  firstSendMs: number
  firstReceiptMs: number
  /** The later sends: medians and worst, ms. */
  laterSendMs: number
  laterReceiptMs: number
  laterWorstSendMs: number
}

function signedBlobTxs(sidecar: 0 | 1, fromIndex: number): string[] {
  const common = new ChainSpec(devGenesis()).commonAt(0n, 0n).copy()
  if (sidecar === 0) common.setHardfork('prague')
  return Array.from({ length: SENDS }, (_, nonce) =>
    bytesToHex(devBlobTx(common, fromIndex, `blob ${nonce} of sidecar ${sidecar}`, BigInt(nonce)).serializeNetworkWrapper()),
  )
}

async function measure(server: BlobSendRow['server'], url: string, sidecar: 0 | 1, delayMs: number, raws: string[]): Promise<BlobSendRow> {
  const rpc = rpcClient(url)
  await rpc('eth_blockNumber', [])
  await new Promise((r) => setTimeout(r, delayMs))
  const sends: number[] = []
  const receipts: number[] = []
  for (const raw of raws) {
    const start = performance.now()
    const hash = (await rpc('eth_sendRawTransaction', [raw])) as string
    sends.push(performance.now() - start)
    for (let i = 0; i < 6000; i++) {
      if ((await rpc('eth_getTransactionReceipt', [hash])) !== null) break
      await new Promise((r) => setTimeout(r, 5))
    }
    receipts.push(performance.now() - start)
  }
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  return {
    server,
    sidecar,
    delayMs,
    firstSendMs: sends[0]!,
    firstReceiptMs: receipts[0]!,
    laterSendMs: median(sends.slice(1)),
    laterReceiptMs: median(receipts.slice(1)),
    laterWorstSendMs: Math.max(...sends.slice(1)),
  }
}

export async function runBlobSends(opts: { work: string; cli: string | undefined; log: (l: string) => void }): Promise<BlobSendRow[]> {
  const rows: BlobSendRow[] = []
  const file = join(opts.work, 'blob-sends-genesis.json')
  writeFileSync(file, JSON.stringify(devGenesis()))
  for (const sidecar of [0, 1] as const) {
    const raws = signedBlobTxs(sidecar, 4)
    for (const delayMs of DELAYS_MS) {
      const node = await spawnNode(['--chain', 'dev', '--datadir', join(opts.work, `blob-sends-${sidecar}-${delayMs}`)], 120_000, opts.cli)
      try {
        rows.push(await measure('sponge', node.httpUrl, sidecar, delayMs, raws))
      } finally {
        await node.stop()
      }
      const anvil = await startAnvil(file)
      try {
        rows.push(await measure('anvil', anvil.url, sidecar, delayMs, raws))
      } finally {
        anvil.proc.kill()
      }
    }
  }
  for (const r of rows) {
    opts.log(
      `blob sends ${r.server}, sidecar v${r.sidecar}, first ${r.delayMs / 1000} s after start: first send ${r.firstSendMs.toFixed(0)} ms (receipt ${r.firstReceiptMs.toFixed(0)} ms), later ${r.laterSendMs.toFixed(0)} ms (receipt ${r.laterReceiptMs.toFixed(0)} ms; worst send ${r.laterWorstSendMs.toFixed(0)} ms), median of ${SENDS - 1}`,
    )
  }
  return rows
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cliAt = process.argv.indexOf('--cli')
  const work = mkdtempSync(join(tmpdir(), 'sponge-blobsends-'))
  try {
    await runBlobSends({ work, cli: cliAt === -1 ? undefined : process.argv[cliAt + 1], log: (l) => console.log(l) })
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
