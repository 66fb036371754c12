import { spawnSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'
import { DEV_CHAIN_ID, type DevAccount, devAccounts } from '../chain/dev.js'
import { MULTICALL3_ADDRESS } from '../chain/multicall3.js'
import { loadOrCreateJwtSecret, signJwt } from '../engine/jwt.js'
import { RECIPE_CHECK, type RunningHaproxy, haproxyConfig, haproxyPath, startHaproxy } from '../testing/haproxy.js'
import { rpcCompatCases } from '../testing/ioCase.js'
import { judge } from '../testing/judge.js'
import { REPO_ROOT, rpcCompatPath, tempDatadir } from '../testing/paths.js'
import { signRawTx } from '../testing/rawTx.js'
import { type SpawnedNode, spawnNode, spawnReader } from '../testing/spawnNode.js'
import { WsClient } from '../testing/wsClient.js'
import { hexToBytes } from '../util/hex.js'

// Issue 23, item 4: a node, two readers on its datadir and HAProxy in front (the README's recipe, with shorter
// checks), as clients see it: the rpc-compat cases through the balancer answer as the node does, transactions sent
// through it are mined and their receipts read through it, and a reader SIGKILLed and restarted, then the other
// SIGTERMed and restarted, under a load of reads cost no request (HAProxy retries what met a dead or draining reader
// on another server). No timing thresholds: every wait is on an event or a bounded loop.

const HAPROXY = haproxyPath()
const SKIP_NOTE = `haproxy not found (${process.env.SPONGE_HAPROXY === undefined ? 'on PATH or in /usr/sbin' : `SPONGE_HAPROXY=${process.env.SPONGE_HAPROXY} is no HAProxy`}; .ci/run installs Debian's "haproxy" package)`
if (HAPROXY === undefined) console.warn(`balancer tests skipped: ${SKIP_NOTE}`)

/** Everything a test started, stopped in reverse order whatever happens. */
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

async function started<T extends { stop(): Promise<void> }>(p: Promise<T>): Promise<T> {
  const x = await p
  cleanups.push(() => x.stop())
  return x
}

function datadir(label: string): string {
  const d = tempDatadir(label)
  cleanups.push(() => rmSync(d, { recursive: true, force: true }))
  return d
}

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(60_000),
  })
  return { status: res.status, text: await res.text() }
}

interface RpcReply<T> {
  result?: T
  error?: { code: number; message: string }
}

async function rpc<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const r = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }))
  const reply = JSON.parse(r.text) as RpcReply<T>
  if (r.status !== 200 || reply.error !== undefined) throw new Error(`${method}: HTTP ${r.status} ${r.text}`)
  return reply.result as T
}

/** Polls until `probe` gives a value, every 50 ms, at most `timeoutMs`. */
async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await probe()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** `p`, or a failure naming `what` after `timeoutMs`. */
async function within<T>(what: string, p: Promise<T>, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${timeoutMs} ms`)), timeoutMs)
  })
  try {
    return await Promise.race([p, late])
  } finally {
    clearTimeout(timer)
  }
}

const readerArgs = (chain: string, dir: string, node: SpawnedNode, extra: string[] = []) => [
  '--no-kzg-preload',
  '--chain',
  chain,
  '--datadir',
  dir,
  '--rpc.upstream',
  node.httpUrl,
  '--workers',
  '1',
  ...extra,
]

/** Two readers started side by side (each stopped after the test, also when the other failed to start). */
async function twoReaders(args: string[]): Promise<[SpawnedNode, SpawnedNode]> {
  const a = spawnReader(args)
  const b = spawnReader(args)
  for (const p of [a, b])
    void p.then(
      (r) => cleanups.push(() => r.stop()),
      () => {},
    )
  return Promise.all([a, b])
}

/** Readers reader1, reader2 and the node as the backup, as the README's recipe lists them. */
const backends = (r1: SpawnedNode, r2: SpawnedNode, node: SpawnedNode) => [
  { name: 'reader1', url: r1.httpUrl },
  { name: 'reader2', url: r2.httpUrl },
  { name: 'node', url: node.httpUrl, backup: true },
]

async function bothReadersUp(h: RunningHaproxy): Promise<void> {
  await h.waitFor('reader1', 'UP')
  await h.waitFor('reader2', 'UP')
}

describe('the README recipe', () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
  /** The recipe's config block: where it is written, and its text. */
  const written = /cat > (\S+) <<'EOF'\n([\s\S]*?)\nEOF\n/.exec(readme)
  const shown = written?.[2]

  it("shows haproxyConfig's text for its ports (what the balancer tests run, with shorter checks)", () => {
    expect(shown, "README.md has a `cat > <file> <<'EOF'` block").toBeDefined()
    const expected = haproxyConfig(
      [
        { name: 'reader1', url: 'http://127.0.0.1:8547' },
        { name: 'reader2', url: 'http://127.0.0.1:8548' },
        { name: 'node', url: 'http://127.0.0.1:8546', backup: true },
      ],
      { bind: { host: '127.0.0.1', port: 8545 }, statsSocket: '/tmp/sponge-haproxy.sock', check: RECIPE_CHECK },
    )
    expect(`${shown}\n`).toBe(expected)
    // The commands beside it start what the config names.
    expect(readme).toContain('./bin/sponge node --chain dev --datadir .sponge/balanced --http.port 8546')
    for (const port of [8547, 8548])
      expect(readme).toContain(`./bin/sponge rpc --chain dev --datadir .sponge/balanced --http.port ${port} --rpc.upstream http://127.0.0.1:8546`)
    expect(readme).toContain(`/usr/sbin/haproxy -f ${written?.[1]} -db &`)
  })

  // Issue 31, item 9: run after "First five minutes", the recipe met `npm start`'s node on its datadir and ports, and
  // left its haproxy.cfg in the checkout for `git status` to show.
  it("does not collide with `npm start`: its own datadir, `npm start` stopped for 8545, its config out of git's sight", () => {
    const start = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
    const startDatadir = /--datadir (\S+)/.exec(start)?.[1]
    expect(startDatadir).toBeDefined()
    const section = readme.slice(readme.indexOf('## Readers and a balancer'), readme.indexOf('/usr/sbin/haproxy -f'))
    const datadirs = [...section.matchAll(/--datadir (\S+)/g)].map((m) => m[1])
    expect(datadirs).toHaveLength(3)
    expect(datadirs.filter((d) => d === startDatadir)).toEqual([])
    // The frontend binds npm start's port (the First five minutes script then runs unchanged): the text says to stop it.
    expect(shown).toContain('bind 127.0.0.1:8545')
    expect(section).toMatch(/Stop\s+`npm start`\s+first/)
    // Ignored as .gitignore names it: its folder (`.sponge/`) or the file itself (read here: no git needed).
    const file = written?.[1] ?? ''
    const ignores = readFileSync(join(REPO_ROOT, '.gitignore'), 'utf8').split('\n')
    const folder = file.includes('/') ? `${file.slice(0, file.indexOf('/'))}/` : undefined
    expect(
      ignores.some((line) => line === folder || line === file || line === `/${file}`),
      `${file} is not ignored by .gitignore`,
    ).toBe(true)
  })

  it.skipIf(HAPROXY === undefined)(`is a config HAProxy accepts (haproxy -c)${HAPROXY === undefined ? ` (skipped: ${SKIP_NOTE})` : ''}`, () => {
    const file = join(tmpdir(), `sponge-haproxy-readme-${process.pid}.cfg`)
    writeFileSync(file, `${shown ?? ''}\n`)
    cleanups.push(() => rmSync(file, { force: true }))
    const check = spawnSync(HAPROXY!, ['-c', '-f', file], { encoding: 'utf8' })
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0)
  })
})

describe.skipIf(HAPROXY === undefined)(`a node, two readers and HAProxy${HAPROXY === undefined ? ` (skipped: ${SKIP_NOTE})` : ''}`, () => {
  it("replays the rpc-compat cases through the balancer and gets the node's replies", async () => {
    const dir = datadir('balancer-compat')
    const genesis = rpcCompatPath('genesis.json')
    // As the conformance runner starts its node (its chain imported, geth's namespaces); the chain's head is
    // years old, so /health's age bound is off on every process (a real chain's head is seconds old).
    const node = await started(
      spawnNode([
        '--no-kzg-preload',
        '--chain',
        genesis,
        '--import',
        rpcCompatPath('chain.rlp'),
        '--datadir',
        dir,
        '--http.api',
        'eth,net,web3,debug,txpool,testing',
        '--health.maxage',
        '0',
      ]),
    )
    const { secret } = loadOrCreateJwtSecret(join(dir, 'jwt.hex'))
    const fcu = await post(node.authUrl!, readFileSync(rpcCompatPath('headfcu.json'), 'utf8'), { authorization: `Bearer ${signJwt(secret)}` })
    expect(fcu.text).toContain('"VALID"')
    const extra = ['--http.api', 'eth,net,web3,debug,txpool', '--health.maxage', '0']
    const [r1, r2] = await twoReaders(readerArgs(genesis, dir, node, extra))
    const haproxy = await started(startHaproxy(backends(r1, r2, node)))
    await bothReadersUp(haproxy)

    const failures: string[] = []
    let compared = 0
    let sent = 0
    for (const c of rpcCompatCases(rpcCompatPath())) {
      const method = c.name.split('/')[0]!
      // testing_buildBlockV1 builds on the node's pool: readers do not serve it (issue 23), and the node behind
      // them is the backup only.
      if (method.startsWith('testing_')) continue
      for (const ex of c.exchanges) {
        const through = await post(haproxy.url, ex.request)
        const verdict = judge(ex.expected, through.text, c.speconly)
        if (through.status !== 200 || verdict !== undefined) {
          failures.push(`${c.name}: HTTP ${through.status}, ${verdict ?? 'judged equal'}`)
          break
        }
        if (method === 'eth_sendRawTransaction') {
          // Forwarded to the node, which answered it; sent again, the node would say "already known".
          sent++
          continue
        }
        const direct = await post(node.httpUrl, ex.request)
        compared++
        if (!isDeepStrictEqual(JSON.parse(through.text), JSON.parse(direct.text))) {
          failures.push(`${c.name}: through the balancer ${through.text.slice(0, 300)}, from the node ${direct.text.slice(0, 300)}`)
          break
        }
      }
    }
    expect(failures).toEqual([])
    expect(compared).toBeGreaterThanOrEqual(30)
    expect(sent).toBeGreaterThanOrEqual(1)
    // The readers answered them, not the node: it is the backup, and both readers were up.
    const servers = await haproxy.servers()
    expect(servers.find((s) => s.name === 'node')?.sent).toBe(0)
    expect(servers.filter((s) => !s.backup).reduce((n, s) => n + s.sent, 0)).toBeGreaterThanOrEqual(compared + sent)
  }, 180_000)

  it('mines transactions sent through it, and loses no read while readers are killed (SIGKILL, SIGTERM) and restarted', async () => {
    const dir = datadir('balancer-dev')
    const node = await started(spawnNode(['--no-kzg-preload', '--no-warmup', '--chain', 'dev', '--datadir', dir]))
    const [r1, r2] = await twoReaders(readerArgs('dev', dir, node))
    const haproxy = await started(startHaproxy(backends(r1, r2, node)))
    await bothReadersUp(haproxy)
    const [a0, a1, a2, a3] = [0, 1, 2, 3].map((i) => devAccounts()[i]!) as [DevAccount, DevAccount, DevAccount, DevAccount]

    // Transactions through the balancer: raw ones signed here, and one the reader signs with its dev key; the
    // readers forward them to the node. New heads come over a WebSocket through HAProxy too.
    const ws = await WsClient.open(haproxy.url.replace('http://', 'ws://'))
    cleanups.push(() => ws.ws.close())
    const sub = (await ws.call<string>('eth_subscribe', ['newHeads'])).result
    expect(sub).toBeDefined()
    /** Resolves when newHeads has brought `block` (at most 30 s). */
    const headArrives = (block: number) =>
      within(
        `newHeads ${block} over the WebSocket`,
        ws.next((m) => m.params !== undefined && m.params.subscription === sub && Number((m.params.result as { number: string }).number) === block),
      )

    const hashes: string[] = []
    for (let nonce = 0n; nonce < 3n; nonce++) {
      const raw = signRawTx(
        {
          type: 2,
          chainId: BigInt(DEV_CHAIN_ID),
          nonce,
          maxFee: 10n ** 11n,
          tip: 10n ** 9n,
          gasLimit: 21_000n,
          to: a1.address,
          value: 1n,
          data: new Uint8Array(),
        },
        hexToBytes(a0.privateKey),
      )
      hashes.push(await rpc<string>(haproxy.url, 'eth_sendRawTransaction', [raw]))
    }
    hashes.push(await rpc<string>(haproxy.url, 'eth_sendTransaction', [{ from: a2.address, to: a3.address, value: '0x1' }]))
    for (const hash of hashes) {
      const receipt = await eventually(`the receipt of ${hash} through the balancer`, () =>
        rpc<{ status: string; blockNumber: string } | null>(haproxy.url, 'eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined),
      )
      expect(receipt.status).toBe('0x1')
      // Its block came as a new head over the WebSocket.
      await headArrives(Number(receipt.blockNumber))
    }
    ws.ws.close()

    // The load: a few loops of reads through the balancer (store reads, state, an eth_call in the worker lane),
    // while a writer beside them sends transactions to the node so that heads keep coming.
    const failures: string[] = []
    let done = 0
    const waiters: { at: number; resolve: () => void }[] = []
    const completed = () => {
      done++
      for (const w of waiters.filter((x) => x.at <= done)) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
    }
    /** Resolves once `n` more reads have been answered. */
    const moreReads = (n: number) => new Promise<void>((resolve) => waiters.push({ at: done + n, resolve }))
    let running = true
    const reads: [string, unknown[]][] = [
      ['eth_getBalance', [a1.address, 'latest']],
      ['eth_getTransactionReceipt', [hashes[0]]],
      ['eth_call', [{ to: MULTICALL3_ADDRESS, data: '0x42cbb15c' }, 'latest']], // getBlockNumber()
      ['eth_blockNumber', []],
      ['eth_getBlockByNumber', ['latest', false]],
    ]
    const loop = async (id: number) => {
      for (let i = id; running; i++) {
        const [method, params] = reads[i % reads.length]!
        try {
          const r = await post(haproxy.url, JSON.stringify({ jsonrpc: '2.0', id: i, method, params }))
          const reply = JSON.parse(r.text) as RpcReply<unknown>
          if (r.status !== 200 || reply.error !== undefined || reply.result === undefined)
            failures.push(`${method}: HTTP ${r.status} ${r.text.slice(0, 200)}`)
        } catch (e) {
          failures.push(`${method}: ${(e as Error).message}`)
        }
        completed()
      }
    }
    let mined = 0
    const writer = async () => {
      try {
        while (running) {
          const hash = await rpc<string>(node.httpUrl, 'eth_sendTransaction', [{ from: a2.address, to: a3.address, value: '0x1' }])
          await eventually(`receipt ${hash}`, () => rpc<unknown>(node.httpUrl, 'eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined))
          mined++
        }
      } catch (e) {
        failures.push(`the writer (straight to the node): ${(e as Error).message}`)
      }
    }
    const load = Promise.all([...[0, 1, 2, 3].map(loop), writer()])
    /** The reader again on its port, as a supervisor restarts it (the port taken meanwhile: on another, and
     * HAProxy told through its runtime API); resolves once HAProxy has it UP and sends it reads again. */
    const restart = async (name: string, gone: SpawnedNode) => {
      await haproxy.waitFor(name, 'DOWN')
      await moreReads(100)
      const sentBefore = (await haproxy.servers()).find((s) => s.name === name)!.sent
      try {
        await started(spawnReader(readerArgs('dev', dir, node, ['--http.port', new URL(gone.httpUrl).port])))
      } catch {
        await haproxy.setServer(name, (await started(spawnReader(readerArgs('dev', dir, node)))).httpUrl)
      }
      await haproxy.waitFor(name, 'UP')
      await moreReads(100)
      await eventually(`${name} serving through the balancer again`, async () =>
        (await haproxy.servers()).find((s) => s.name === name)!.sent > sentBefore ? true : undefined,
      )
    }
    try {
      await moreReads(100)
      // A crash: reader1 SIGKILLed, what was in flight on it and what reaches it before its checks fail is retried.
      const killed = new Promise<void>((resolve) => r1.process.once('exit', () => resolve()))
      r1.process.kill('SIGKILL')
      await killed
      await restart('reader1', r1)
      // A rolling restart: reader2 SIGTERMed, it drains (503 on open connections, its port closed) and exits.
      await r2.stop()
      await restart('reader2', r2)
    } finally {
      running = false
      await load
    }
    const servers = await haproxy.servers()
    console.log(
      `balancer: ${done} reads, ${failures.length} failed, ${mined} blocks meanwhile; ${servers.map((s) => `${s.name} ${s.status} sent ${s.sent} retried ${s.retries} redispatched ${s.redispatches}`).join('; ')}`,
    )
    expect(failures).toEqual([])
    expect(done).toBeGreaterThanOrEqual(300)
    expect(mined).toBeGreaterThanOrEqual(1)
  }, 240_000)
})
