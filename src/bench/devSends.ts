import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { http, type Hex, createPublicClient, createWalletClient, defineChain } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createNonceManager, jsonRpc } from 'viem/nonce'
import { DEV_CHAIN_ID, devAccounts, devGenesis } from '../chain/dev.js'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'
import { startAnvil } from './anvil.js'
import { post } from './chainGen.js'
import { cpuSeconds } from './procStat.js'
import { kzgLoaded } from './nodeSettled.js'

// bench:load's dev sends (issue 30 item 6, issue 31 item 6): `sponge node --chain dev` as `npm start` runs it (a block
// per send, each send answered once its block is made) beside anvil (automine), same genesis (chain/dev.ts), both up
// at once and measured in turn, round by round (the order alternating, runDevSends):
// - sequential: SEQUENTIAL eth_sendTransaction from one dev account (the node's wallet fills and signs), each
//   followed by eth_getTransactionReceipt until it answers, then the next: each send's time to its receipt, and the
//   server's CPU time over them (all its threads; less at the mercy of a busy machine than the times);
// - viem burst: VIEM_BURST sends fired together through viem from one account (a local key with viem's nonce manager,
//   so the client gives consecutive nonces; viem fills gas and fees itself), each awaited with
//   waitForTransactionReceipt: the time until the last receipt;
// - wallet burst: `sends` eth_sendTransaction without a nonce fired together from one dev account over HTTP (the
//   wallet's nonce lock, issue 31 item 6): the time to the last answer, sends answered with a hash, blocks made.
//   anvil takes no nonce lock: many of its sends fail, so its time is no comparison.
// With `period`, Sponge runs `--dev.period 3600` and anvil `--no-mining`, an evm_mine after each round, and only the
// wallet burst runs (the other two wait for blocks that only come on demand).
// Run alone: node dist/bench/devSends.js [--rounds 5 --sends 50 --period --cli <main.js> --sponge-args '--http.threads 1']

export const SEQUENTIAL = 20
export const VIEM_BURST = 50

export interface DevSendsRound {
  server: 'sponge' | 'anvil'
  round: number
  /** Each sequential send's time from the send to its receipt, ms (absent with `period`). */
  sequentialMs?: number[]
  /** The server's CPU time over the round's sequential sends, ms (all its threads). */
  sequentialCpuMs?: number
  /** The viem burst: until every receipt, ms; sends that failed. */
  viemBurstMs?: number
  viemFailures?: number
  viemErrors?: Record<string, number>
  /** The wallet burst: to the last answer, ms; sends answered with a hash; blocks made; errors by message. */
  walletBurstMs: number
  walletOk: number
  walletBlocks: number
  walletErrors: Record<string, number>
}

export interface DevSendsSummary {
  server: 'sponge' | 'anvil'
  /** Over every round's sequential sends, ms. */
  sequentialP50: number
  sequentialP99: number
  /** The server's CPU time a sequential send, over every round, ms. */
  sequentialCpu: number
  /** Median over the rounds, ms. */
  viemBurstMs: number
  walletBurstMs: number
}

interface Reply {
  result?: unknown
  error?: { message: string }
}

async function call(url: string, method: string, params: unknown[] = []): Promise<Reply> {
  const res = await post(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as Reply
}

const accountAt = (i: number) => devAccounts()[i]!
const to = () => accountAt(7).address

async function sequential(url: string, pid: number | undefined): Promise<{ times: number[]; cpuMs: number }> {
  const from = accountAt(1).address
  const times: number[] = []
  const cpuBefore = pid === undefined ? 0 : cpuSeconds(pid)
  for (let i = 0; i < SEQUENTIAL; i++) {
    const start = performance.now()
    const sent = await call(url, 'eth_sendTransaction', [{ from, to: to(), value: '0x1' }])
    if (typeof sent.result !== 'string') throw new Error(`sequential send: ${sent.error?.message ?? 'no hash'}`)
    let receipt: Reply | undefined
    // Bounded: a receipt that never comes fails the run instead of hanging it.
    for (let tries = 0; tries < 10_000; tries++) {
      receipt = await call(url, 'eth_getTransactionReceipt', [sent.result])
      if (receipt.result !== null && receipt.result !== undefined) break
      await new Promise((r) => setTimeout(r, 1))
    }
    if (receipt?.result === null || receipt?.result === undefined) throw new Error(`sequential send ${sent.result}: no receipt`)
    times.push(performance.now() - start)
  }
  return { times, cpuMs: pid === undefined ? Number.NaN : (cpuSeconds(pid) - cpuBefore) * 1000 }
}

/** A viem client pair on `url`, its account a local key (index `keyIndex`) whose nonces viem hands out itself. */
function viemClients(url: string, keyIndex: number) {
  const chain = defineChain({
    id: DEV_CHAIN_ID,
    name: 'dev',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  })
  // A manager per client: viem's shared one keys nonces by address and chain id, alike on both servers.
  const account = privateKeyToAccount(accountAt(keyIndex).privateKey as Hex, { nonceManager: createNonceManager({ source: jsonRpc() }) })
  return {
    wallet: createWalletClient({ account, chain, transport: http(url) }),
    client: createPublicClient({ chain, transport: http(url) }),
  }
}

async function viemBurst(clients: ReturnType<typeof viemClients>): Promise<{ ms: number; failures: number; errors: Record<string, number> }> {
  const start = performance.now()
  const outcomes = await Promise.allSettled(
    Array.from({ length: VIEM_BURST }, async (_, i) => {
      const hash = await clients.wallet.sendTransaction({ to: to() as Hex, value: BigInt(i + 1) })
      return clients.client.waitForTransactionReceipt({ hash })
    }),
  )
  const errors: Record<string, number> = {}
  for (const o of outcomes) {
    if (o.status === 'rejected') {
      const why = (
        o.reason instanceof Error ? ((o.reason as Error & { shortMessage?: string }).shortMessage ?? o.reason.message) : String(o.reason)
      ).slice(0, 120)
      errors[why] = (errors[why] ?? 0) + 1
    }
  }
  return { ms: performance.now() - start, failures: outcomes.filter((o) => o.status === 'rejected').length, errors }
}

async function walletBurst(url: string, sends: number, period: boolean) {
  const from = accountAt(2).address
  const before = Number((await call(url, 'eth_blockNumber')).result)
  const start = performance.now()
  const replies = await Promise.all(
    Array.from({ length: sends }, (_, i) => call(url, 'eth_sendTransaction', [{ from, to: to(), value: `0x${(i + 1).toString(16)}` }])),
  )
  const ms = performance.now() - start
  if (period) await call(url, 'evm_mine')
  const errors: Record<string, number> = {}
  for (const x of replies) if (x.error !== undefined) errors[x.error.message] = (errors[x.error.message] ?? 0) + 1
  const blocks = Number((await call(url, 'eth_blockNumber')).result) - before
  return { ms, ok: replies.filter((x) => x.result !== undefined).length, blocks, errors }
}

const percentile = (xs: number[], p: number) => {
  const s = xs.slice().sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!
}

export function summarize(rounds: DevSendsRound[]): DevSendsSummary[] {
  return (['sponge', 'anvil'] as const).map((server) => {
    const mine = rounds.filter((r) => r.server === server)
    const seq = mine.flatMap((r) => r.sequentialMs ?? [])
    const cpu = mine.reduce((sum, r) => sum + (r.sequentialCpuMs ?? 0), 0)
    const bursts = mine.flatMap((r) => (r.viemBurstMs === undefined ? [] : [r.viemBurstMs]))
    return {
      server,
      sequentialP50: seq.length === 0 ? Number.NaN : percentile(seq, 0.5),
      sequentialP99: seq.length === 0 ? Number.NaN : percentile(seq, 0.99),
      sequentialCpu: seq.length === 0 ? Number.NaN : cpu / seq.length,
      viemBurstMs: bursts.length === 0 ? Number.NaN : percentile(bursts, 0.5),
      walletBurstMs: percentile(
        mine.map((r) => r.walletBurstMs),
        0.5,
      ),
    }
  })
}

/**
 * Both servers started on the dev genesis, a warm-up round each (untimed: a fresh node's first sends pay for its
 * worker lane's start), then `rounds` rounds, each workload run on both servers before the next: Sponge first in odd
 * rounds, anvil first in even ones.
 */
export async function runDevSends(opts: {
  work: string
  cli: string | undefined
  /** More flags for the Sponge node (`--http.threads 1`). */
  spongeArgs?: string[]
  rounds: number
  sends?: number
  period?: boolean
  log: (l: string) => void
}): Promise<{ rounds: DevSendsRound[]; summary: DevSendsSummary[] }> {
  const period = opts.period === true
  const sends = opts.sends ?? 50
  const genesisFile = join(opts.work, 'dev-sends-genesis.json')
  writeFileSync(genesisFile, JSON.stringify(devGenesis()))
  const node: SpawnedNode = await spawnNode(
    ['--chain', 'dev', '--datadir', join(opts.work, 'dev-sends'), ...(period ? ['--dev.period', '3600'] : []), ...(opts.spongeArgs ?? [])],
    120_000,
    opts.cli,
  )
  const out: DevSendsRound[] = []
  try {
    await kzgLoaded(node, opts.spongeArgs)
    const anvil = await startAnvil(genesisFile, ['--chain-id', String(DEV_CHAIN_ID), ...(period ? ['--no-mining'] : [])])
    try {
      const servers = [
        { server: 'sponge' as const, url: node.httpUrl, pid: node.process.pid, viem: viemClients(node.httpUrl, 3) },
        { server: 'anvil' as const, url: anvil.url, pid: anvil.proc.pid, viem: viemClients(anvil.url, 3) },
      ]
      for (const s of servers) {
        await walletBurst(s.url, sends, period)
        if (!period) {
          await sequential(s.url, s.pid)
          await viemBurst(s.viem)
        }
      }
      for (let round = 1; round <= opts.rounds; round++) {
        const rows = servers.map((s) => ({ server: s.server, round }) as Partial<DevSendsRound> & Pick<DevSendsRound, 'server' | 'round'>)
        // The order alternates round by round: this process's own client (fetch, viem) still warms as it goes, so the
        // server measured second in a round met a warmer client.
        const order = round % 2 === 1 ? [0, 1] : [1, 0]
        if (!period) {
          for (const i of order) {
            const q = await sequential(servers[i]!.url, servers[i]!.pid)
            rows[i]!.sequentialMs = q.times
            rows[i]!.sequentialCpuMs = q.cpuMs
          }
          for (const i of order) {
            const b = await viemBurst(servers[i]!.viem)
            rows[i]!.viemBurstMs = b.ms
            rows[i]!.viemFailures = b.failures
            rows[i]!.viemErrors = b.errors
          }
        }
        for (const i of order) {
          const s = servers[i]!
          const w = await walletBurst(s.url, sends, period)
          Object.assign(rows[i]!, { walletBurstMs: w.ms, walletOk: w.ok, walletBlocks: w.blocks, walletErrors: w.errors })
        }
        for (const r of rows as DevSendsRound[]) {
          out.push(r)
          const seq =
            r.sequentialMs === undefined
              ? ''
              : `sequential p50 ${percentile(r.sequentialMs, 0.5).toFixed(1)} ms p99 ${percentile(r.sequentialMs, 0.99).toFixed(1)} ms, CPU ${((r.sequentialCpuMs ?? Number.NaN) / r.sequentialMs.length).toFixed(2)} ms a send; `
          const burst =
            r.viemBurstMs === undefined
              ? ''
              : `viem burst of ${VIEM_BURST} ${r.viemBurstMs.toFixed(0)} ms (${r.viemFailures} failed${r.viemFailures === 0 ? '' : `: ${JSON.stringify(r.viemErrors)}`}); `
          opts.log(
            `dev sends ${r.server.padEnd(6)} round ${round}: ${seq}${burst}wallet burst ${r.walletOk}/${sends} in ${r.walletBurstMs.toFixed(0)} ms, ${r.walletBlocks} block(s) ${JSON.stringify(r.walletErrors)}`,
          )
        }
      }
    } finally {
      anvil.proc.kill()
    }
  } finally {
    await node.stop()
  }
  return { rounds: out, summary: summarize(out) }
}

/** The summary's lines: each figure for Sponge and anvil, and Sponge's as a multiple of anvil's. */
export function describeDevSends(summary: DevSendsSummary[]): string[] {
  const [s, a] = [summary.find((x) => x.server === 'sponge')!, summary.find((x) => x.server === 'anvil')!]
  const row = (name: string, k: keyof Omit<DevSendsSummary, 'server'>) =>
    `${name}: sponge ${s[k].toFixed(1)} ms, anvil ${a[k].toFixed(1)} ms, ×${(s[k] / a[k]).toFixed(2)}`
  return [
    row(`sequential send to receipt p50 (${SEQUENTIAL} a round)`, 'sequentialP50'),
    row('sequential send to receipt p99', 'sequentialP99'),
    row('server CPU a sequential send (all threads)', 'sequentialCpu'),
    row(`viem burst of ${VIEM_BURST} to the last receipt (median round)`, 'viemBurstMs'),
    row('wallet burst to the last answer (median round; anvil drops sends)', 'walletBurstMs'),
  ]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      sends: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '5' },
      period: { type: 'boolean', default: false },
      // Another build's CLI (dist/cli/main.js), to measure before and after a change.
      cli: { type: 'string' },
      'sponge-args': { type: 'string' },
    },
  })
  const work = mkdtempSync(join(tmpdir(), 'sponge-dev-sends-'))
  try {
    const r = await runDevSends({
      work,
      cli: values.cli,
      spongeArgs: (values['sponge-args'] ?? '').split(' ').filter((a) => a !== ''),
      rounds: Number(values.rounds),
      sends: Number(values.sends),
      period: values.period,
      log: (l) => console.log(l),
    })
    for (const l of describeDevSends(r.summary)) console.log(l)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
