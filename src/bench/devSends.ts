import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { devAccounts, devGenesis } from '../chain/dev.js'
import { spawnNode } from '../testing/spawnNode.js'
import { startAnvil } from './anvil.js'
import { post } from './chainGen.js'

// Dev-wallet sends fired together from one account (issue 31 item 6), as a user's script fires them: `--sends`
// eth_sendTransaction without a nonce at once, over HTTP, `--rounds` times, on Sponge's dev chain (`sponge node
// --chain dev`, a block per transaction; with `--period`, `--dev.period 3600` and an evm_mine after each round) and
// on anvil (automine; `--no-mining` with `--period`), same genesis. Per round: sends answered with a hash, the wall
// time until the last answer, blocks made, the errors by message. Run: node dist/bench/devSends.js [--cli <main.js>]

interface Reply {
  result?: string
  error?: { message: string }
}

interface Round {
  ok: number
  ms: number
  blocks: number
  errors: Record<string, number>
}

const { values } = parseArgs({
  options: {
    sends: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '5' },
    period: { type: 'boolean', default: false },
    // Another build's CLI (dist/cli/main.js), to measure before and after a change.
    cli: { type: 'string' },
  },
})
const sends = Number(values.sends)
const rounds = Number(values.rounds)

async function call(url: string, method: string, params: unknown[] = []): Promise<Reply> {
  const res = await post(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  return (await res.json()) as Reply
}

async function measure(url: string): Promise<Round[]> {
  const from = devAccounts()[2]!.address
  const to = devAccounts()[7]!.address
  const out: Round[] = []
  for (let r = 0; r < rounds; r++) {
    const before = Number((await call(url, 'eth_blockNumber')).result)
    const start = performance.now()
    const replies = await Promise.all(
      Array.from({ length: sends }, (_, i) => call(url, 'eth_sendTransaction', [{ from, to, value: `0x${(i + 1).toString(16)}` }])),
    )
    const ms = performance.now() - start
    if (values.period) await call(url, 'evm_mine')
    const errors: Record<string, number> = {}
    for (const x of replies) if (x.error !== undefined) errors[x.error.message] = (errors[x.error.message] ?? 0) + 1
    const blocks = Number((await call(url, 'eth_blockNumber')).result) - before
    out.push({ ok: replies.filter((x) => x.result !== undefined).length, ms: Math.round(ms), blocks, errors })
  }
  return out
}

const work = mkdtempSync(join(tmpdir(), 'sponge-dev-sends-'))
try {
  const node = await spawnNode(
    ['--chain', 'dev', '--datadir', join(work, 'sponge'), ...(values.period ? ['--dev.period', '3600'] : [])],
    120_000,
    values.cli,
  )
  let sponge: Round[]
  try {
    sponge = await measure(node.httpUrl)
  } finally {
    await node.stop()
  }
  const genesisFile = join(work, 'genesis.json')
  writeFileSync(genesisFile, JSON.stringify(devGenesis()))
  const anvil = await startAnvil(genesisFile, ['--chain-id', '1337', ...(values.period ? ['--no-mining'] : [])])
  let anvilRounds: Round[]
  try {
    anvilRounds = await measure(anvil.url)
  } finally {
    anvil.proc.kill()
  }
  for (const [server, rows] of [
    ['sponge', sponge],
    ['anvil', anvilRounds],
  ] as const) {
    for (const [i, row] of rows.entries()) {
      console.log(
        `${server.padEnd(6)} round ${i + 1}: ${row.ok}/${sends} sent in ${row.ms} ms, ${row.blocks} block(s)  ${JSON.stringify(row.errors)}`,
      )
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
