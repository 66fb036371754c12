import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import WebSocket from 'ws'
import { devGenesis } from '../chain/dev.js'
import { spawnNode } from '../testing/spawnNode.js'
import { startAnvil } from './anvil.js'
import { rpcClient } from './chainGen.js'

// bench:load's WebSocket fan-out: SUBSCRIBERS connections each subscribed to newHeads; a block is mined (evm_mine,
// which both dev chains serve) and the time from the request to the first and to the last delivery is taken, for
// BLOCKS blocks, on Sponge and on anvil in the same run.

const SUBSCRIBERS = 1000
const BLOCKS = 20

export interface FanoutRow {
  server: 'sponge' | 'anvil'
  subscribers: number
  blocks: number
  /** Medians over the blocks, in ms. */
  firstMs: number
  lastMs: number
  /** Worst block's last delivery, in ms. */
  worstLastMs: number
}

async function measure(server: FanoutRow['server'], httpUrl: string): Promise<FanoutRow> {
  const wsUrl = httpUrl.replace('http://', 'ws://')
  let waiting: ((at: number) => void)[] = []
  const sockets: WebSocket[] = []
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const ws = new WebSocket(wsUrl)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_subscribe', params: ['newHeads'] }))
    await new Promise<void>((resolve) => ws.once('message', () => resolve()))
    ws.on('message', () => waiting.shift()?.(performance.now()))
    sockets.push(ws)
  }
  const rpc = rpcClient(httpUrl)
  const firsts: number[] = []
  const lasts: number[] = []
  for (let b = 0; b < BLOCKS; b++) {
    const arrivals = Array.from({ length: SUBSCRIBERS }, () => new Promise<number>((r) => waiting.push(r)))
    const start = performance.now()
    await rpc('evm_mine', [])
    const times = await Promise.all(arrivals)
    firsts.push(Math.min(...times) - start)
    lasts.push(Math.max(...times) - start)
    waiting = []
  }
  for (const ws of sockets) ws.terminate()
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  return { server, subscribers: SUBSCRIBERS, blocks: BLOCKS, firstMs: median(firsts), lastMs: median(lasts), worstLastMs: Math.max(...lasts) }
}

export async function runFanout(opts: { work: string; cli: string | undefined; log: (l: string) => void }): Promise<FanoutRow[]> {
  const node = await spawnNode(['--chain', 'dev', '--datadir', join(opts.work, 'fanout'), '--dev.period', '3600'], 120_000, opts.cli)
  const rows: FanoutRow[] = []
  try {
    rows.push(await measure('sponge', node.httpUrl))
  } finally {
    await node.stop()
  }
  const file = join(opts.work, 'fanout-genesis.json')
  writeFileSync(file, JSON.stringify(devGenesis()))
  const anvil = await startAnvil(file)
  try {
    rows.push(await measure('anvil', anvil.url))
  } finally {
    anvil.proc.kill()
  }
  for (const r of rows) {
    opts.log(
      `newHeads fan-out ${r.server}: ${r.subscribers} subscribers, ${r.blocks} blocks: first delivery ${r.firstMs.toFixed(1)} ms, last ${r.lastMs.toFixed(1)} ms (median), worst last ${r.worstLastMs.toFixed(1)} ms`,
    )
  }
  return rows
}
