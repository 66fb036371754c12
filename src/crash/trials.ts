import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { devAccounts } from '../chain/dev.js'
import { signRawTx } from '../testing/rawTx.js'
import type { SmallFs } from '../testing/smallFs.js'
import { hexToBytes } from '../util/hex.js'
import { signedTransfer } from '../testing/testNode.js'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'
import { rpcCompatPath } from '../testing/paths.js'
import type { ChainSpec } from '../chain/spec.js'

// Kill trials: SIGKILL a node while it works, restart it on the same datadir, and check that nothing it reported
// stored was lost or changed and that the chain still links from head to genesis.

/**
 * The trials send no blob: their nodes skip c-kzg's setup (seconds of CPU a start, and a stop waits for it), and the
 * block warm-up before they serve (~1.4 s a start of a dev node).
 */
const NO_BLOBS = ['--no-kzg-preload', '--no-warmup']

/** A trial's dev node on `datadir`: one worker, no KZG setup. */
const devNodeArgs = (datadir: string): string[] => ['--chain', 'dev', '--datadir', datadir, '--workers', '1', ...NO_BLOBS]

type Rpc = <T>(method: string, params?: unknown[]) => Promise<T>

function client(url: string): Rpc {
  let id = 0
  return async <T>(method: string, params: unknown[] = []) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    })
    const j = (await res.json()) as { result?: T; error?: { message: string } }
    if (j.error !== undefined) throw new Error(`${method}: ${j.error.message}`)
    return j.result as T
  }
}

/** Raw reply text of a receipt, as a client saw it: compared byte for byte after the restart. */
async function receiptText(url: string, hash: string): Promise<string | null> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getTransactionReceipt', params: [hash] }),
  })
  const text = await res.text()
  return text.includes('"result":null') ? null : text
}

/** Every receipt read before a kill (hash → reply text) is there after it, byte for byte. */
async function expectReceiptsKept(url: string, seen: Map<string, string>): Promise<void> {
  for (const [hash, text] of seen) {
    const after = await receiptText(url, hash)
    if (after !== text) throw new Error(`receipt ${hash} changed across the kill:\n${text}\n${after}`)
  }
}

function kill(node: SpawnedNode): Promise<void> {
  return new Promise((resolve) => {
    if (node.process.exitCode !== null || node.process.signalCode !== null) return resolve()
    node.process.once('exit', () => resolve())
    node.process.kill('SIGKILL')
  })
}

/** Head to genesis: every block's parentHash is the hash of the canonical block below it. Returns the head number. */
export async function checkChainLinks(url: string): Promise<number> {
  const rpc = client(url)
  const head = await rpc<{ number: string; hash: string; parentHash: string }>('eth_getBlockByNumber', ['latest', false])
  let n = Number(BigInt(head.number))
  let child = head
  while (n > 0) {
    const parent = await rpc<{ hash: string; parentHash: string } | null>('eth_getBlockByNumber', [`0x${(n - 1).toString(16)}`, false])
    if (parent === null) throw new Error(`block ${n - 1} missing below the head`)
    if (parent.hash !== child.parentHash) throw new Error(`block ${n} does not link to block ${n - 1}`)
    child = parent as typeof head
    n--
  }
  return Number(BigInt(head.number))
}

export interface TrialResult {
  receiptsChecked: number
  head: number
}

/**
 * Dev mode, a block per transaction: transfers are sent and their receipts read until a random moment, when the node
 * is killed with one more transaction in flight. After the restart every receipt read before must be identical.
 */
export async function streamTrial(opts: {
  spec: ChainSpec
  datadir: string
  cli: string
  seen: Map<string, string>
  random: () => number
  from: number
}): Promise<TrialResult> {
  const args = devNodeArgs(opts.datadir)
  let node = await spawnNode(args, 120_000, opts.cli)
  const rpc = client(node.httpUrl)
  let nonce = Number(BigInt(await rpc<string>('eth_getTransactionCount', [await sender(opts), 'pending'])))
  const before = 2 + Math.floor(opts.random() * 6)
  for (let i = 0; i < before; i++) {
    const hash = await rpc<string>('eth_sendRawTransaction', [signedTransfer(opts.spec, opts.from, nonce++)])
    for (let tries = 0; tries < 500; tries++) {
      const text = await receiptText(node.httpUrl, hash)
      if (text !== null) {
        opts.seen.set(hash, text)
        break
      }
      await new Promise((r) => setTimeout(r, 10))
    }
  }
  // One more, and the kill while the node builds, imports and stores its block.
  void rpc('eth_sendRawTransaction', [signedTransfer(opts.spec, opts.from, nonce++)]).catch(() => {})
  await new Promise((r) => setTimeout(r, opts.random() * 30))
  await kill(node)
  node = await spawnNode(args, 120_000, opts.cli)
  try {
    await expectReceiptsKept(node.httpUrl, opts.seen)
    return { receiptsChecked: opts.seen.size, head: await checkChainLinks(node.httpUrl) }
  } finally {
    await node.stop()
  }
}

async function sender(opts: { from: number }): Promise<string> {
  const { devAccounts } = await import('../chain/dev.js')
  return devAccounts()[opts.from]!.address
}

/**
 * `--import` of the conformance chain killed after a random number of its blocks were logged as imported, then run
 * again to the end: the import resumes, and ends with the file's last block as head, linked down to genesis.
 */
export async function importTrial(opts: {
  datadir: string
  cli: string
  random: () => number
  expectedHead: string
}): Promise<TrialResult & { killedAfter: number }> {
  const args = ['--chain', rpcCompatPath('genesis.json'), '--datadir', opts.datadir, '--import', rpcCompatPath('chain.rlp'), ...NO_BLOBS]
  const { spawn } = await import('node:child_process')
  const child = spawn(process.execPath, [opts.cli, 'node', '--http.port', '0', '--authrpc.port', '0', '--no-progress', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const killAt = 1 + Math.floor(opts.random() * 50)
  let imported = 0
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve())
    child.stderr.on('data', (d: Buffer) => {
      imported += d.toString().split('"imported block"').length - 1
      if (imported >= killAt) child.kill('SIGKILL')
    })
  })
  const node = await spawnNode(args, 120_000, opts.cli)
  try {
    const head = await client(node.httpUrl)<{ hash: string }>('eth_getBlockByNumber', ['latest', false])
    if (head.hash !== opts.expectedHead) throw new Error(`import ended at ${head.hash}, want ${opts.expectedHead}`)
    return { receiptsChecked: 0, head: await checkChainLinks(node.httpUrl), killedAfter: imported }
  } finally {
    await node.stop()
  }
}

/** A second `sponge node` or `sponge import` on a datadir in use: how it ended, or that it served (a failure). */
/** Whether this machine lets us make a network namespace: the second writer then may start in one of its own. */
let netnsAllowed: boolean | undefined
async function canUnshare(): Promise<boolean> {
  if (netnsAllowed === undefined) {
    const { spawnSync } = await import('node:child_process')
    netnsAllowed = spawnSync('unshare', ['-n', 'true']).status === 0
  }
  return netnsAllowed
}

/**
 * A second `sponge node` or `sponge import` on the datadir; `otherNetns`: in a network namespace of its own (`unshare
 * -n`), as a second container on the same volume (issue 31, item 1: the abstract-socket lock let it in).
 */
async function secondWriter(
  cli: string,
  command: 'node' | 'import',
  datadir: string,
  otherNetns: boolean,
): Promise<{ refused: boolean; output: string }> {
  const { spawn } = await import('node:child_process')
  const args =
    command === 'node'
      ? ['node', ...devNodeArgs(datadir), '--http.port', '0', '--authrpc.port', '0', '--no-progress']
      : ['import', '--chain', 'dev', '--datadir', datadir, '--no-progress', rpcCompatPath('chain.rlp')]
  const child = otherNetns
    ? spawn('unshare', ['-n', process.execPath, cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((resolve) => {
    const onData = (d: Buffer) => {
      output += d.toString()
      // It started writing (a node serving, an import importing): the lock failed. Stopped at once.
      if (/serving|imported block/.test(output)) child.kill('SIGKILL')
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => resolve({ refused: code === 1 && output.includes('already used by another process'), output }))
  })
}

/**
 * Two writers: while a dev node streams transactions, a second node or import is started on its datadir at random
 * moments (between sends and beside one in flight) and must be refused each time; then the first is SIGKILLed at a
 * random moment with a send in flight. After the restart every receipt read before is identical and the chain links.
 */
export async function twoWritersTrial(opts: {
  spec: ChainSpec
  datadir: string
  cli: string
  seen: Map<string, string>
  random: () => number
  from: number
}): Promise<TrialResult & { refusals: number }> {
  const args = devNodeArgs(opts.datadir)
  let node = await spawnNode(args, 120_000, opts.cli)
  const rpc = client(node.httpUrl)
  let nonce = Number(BigInt(await rpc<string>('eth_getTransactionCount', [await sender(opts), 'pending'])))
  let refusals = 0
  const second = async () => {
    const command = opts.random() < 0.5 ? 'node' : 'import'
    const r = await secondWriter(opts.cli, command, opts.datadir, opts.random() < 0.5 && (await canUnshare()))
    if (!r.refused) throw new Error(`a second writer was not refused while the first ran:\n${r.output.slice(0, 600)}`)
    refusals++
  }
  const sends = 1 + Math.floor(opts.random() * 4)
  for (let i = 0; i < sends; i++) {
    const sent = rpc<string>('eth_sendRawTransaction', [signedTransfer(opts.spec, opts.from, nonce++)])
    // Beside the send in flight, or after it.
    if (opts.random() < 0.5) await second()
    const hash = await sent
    if (opts.random() < 0.5) await second()
    const text = await receiptText(node.httpUrl, hash)
    if (text === null) throw new Error(`no receipt for ${hash} after its send was answered`)
    opts.seen.set(hash, text)
  }
  if (refusals === 0) await second()
  // The kill with one more send in flight, a random number of event-loop turns after it left.
  void rpc('eth_sendRawTransaction', [signedTransfer(opts.spec, opts.from, nonce++)]).catch(() => {})
  for (let turns = Math.floor(opts.random() * 50); turns > 0; turns--) await new Promise<void>((resolve) => setImmediate(resolve))
  await kill(node)
  node = await spawnNode(args, 120_000, opts.cli)
  try {
    await expectReceiptsKept(node.httpUrl, opts.seen)
    return { receiptsChecked: opts.seen.size, head: await checkChainLinks(node.httpUrl), refusals }
  } finally {
    await node.stop()
  }
}

/**
 * Dev-wallet bursts (issue 31 item 6): bursts of eth_sendTransaction from one dev account without a nonce, fired
 * together, every send acknowledged with its hash; a last burst is in flight when the node is SIGKILLed.
 * After the restart every acknowledged transaction has its receipt, unchanged, no two of them share a nonce, and each
 * nonce is below the account's mined count.
 */
export async function walletTrial(opts: {
  datadir: string
  cli: string
  random: () => number
  from: number
}): Promise<TrialResult & { acknowledged: number }> {
  const args = devNodeArgs(opts.datadir)
  let node = await spawnNode(args, 120_000, opts.cli)
  const rpc = client(node.httpUrl)
  const from = await sender(opts)
  const to = devAccounts()[9]!.address
  const acknowledged = new Map<string, string>()
  const burst = (n: number) => Array.from({ length: n }, () => rpc<string>('eth_sendTransaction', [{ from, to, value: '0x1' }]))
  const bursts = 1 + Math.floor(opts.random() * 3)
  for (let b = 0; b < bursts; b++) {
    // Every send of a burst is acknowledged: a refusal ("replacement transaction underpriced") is the collision.
    for (const hash of await Promise.all(burst(5 + Math.floor(opts.random() * 20)))) {
      const text = await receiptText(node.httpUrl, hash)
      if (text === null) throw new Error(`no receipt for ${hash} after its send was answered`)
      acknowledged.set(hash, text)
    }
  }
  // The kill with a burst in flight, a random number of event-loop turns after it left.
  const inFlight = burst(5 + Math.floor(opts.random() * 20)).map((p) => p.catch(() => undefined))
  for (let turns = Math.floor(opts.random() * 50); turns > 0; turns--) await new Promise<void>((resolve) => setImmediate(resolve))
  await kill(node)
  await Promise.all(inFlight)
  node = await spawnNode(args, 120_000, opts.cli)
  try {
    const after = client(node.httpUrl)
    await expectReceiptsKept(node.httpUrl, acknowledged)
    const mined = Number(BigInt(await after<string>('eth_getTransactionCount', [from, 'latest'])))
    const nonces = new Set<number>()
    for (const hash of acknowledged.keys()) {
      const tx = await after<{ nonce: string }>('eth_getTransactionByHash', [hash])
      const nonce = Number(BigInt(tx.nonce))
      if (nonces.has(nonce)) throw new Error(`two acknowledged sends took nonce ${nonce}`)
      nonces.add(nonce)
    }
    // Acknowledged sends are answered once mined, and the mined ones are 0 … mined-1: each acknowledged one among them.
    for (const n of nonces) if (n >= mined) throw new Error(`nonce ${n} acknowledged but the account's mined count is ${mined}`)
    if (mined < acknowledged.size) throw new Error(`${acknowledged.size} sends acknowledged, ${mined} mined`)
    return { receiptsChecked: acknowledged.size, head: await checkChainLinks(node.httpUrl), acknowledged: acknowledged.size }
  } finally {
    await node.stop()
  }
}

/** A transfer with 32 KiB of calldata from dev account `from`: its block needs well over a hundred KiB of pages. */
function bulky(spec: ChainSpec, from: number, nonce: number): string {
  const f = { type: 2 as const, chainId: spec.chainId, nonce: BigInt(nonce), maxFee: 100_000_000_000n, tip: 1n, gasLimit: 2_000_000n }
  const to = devAccounts()[9]!.address
  return signRawTx({ ...f, to, value: 1n, data: new Uint8Array(32 * 1024).fill(7) }, hexToBytes(devAccounts()[from]!.privateKey))
}

/**
 * A full disk: a dev node on a small filesystem gets bulky transactions; at a random send the filesystem is filled,
 * and sends go on (each acknowledged, or refused naming ENOSPC); at random the space is freed again or not; then a
 * SIGKILL with a send in flight. After space is freed and the node restarted, every acknowledged transaction has its
 * receipt (`acknowledged` carries them across trials on the same filesystem) and the chain links.
 */
export async function diskFullTrial(opts: {
  spec: ChainSpec
  fs: SmallFs
  cli: string
  acknowledged: Set<string>
  random: () => number
  from: number
}): Promise<TrialResult & { refused: number }> {
  const args = devNodeArgs(join(opts.fs.path, 'db'))
  let node = await spawnNode(args, 120_000, opts.cli)
  const rpc = client(node.httpUrl)
  let nonce = Number(BigInt(await rpc<string>('eth_getTransactionCount', [await sender(opts), 'pending'])))
  const fillAt = Math.floor(opts.random() * 4)
  const sends = fillAt + 1 + Math.floor(opts.random() * 6)
  let filler: string | undefined
  let refused = 0
  try {
    for (let i = 0; i < sends; i++) {
      if (i === fillAt) filler = opts.fs.fill()
      if (filler !== undefined && opts.random() < 0.15) {
        rmSync(filler)
        filler = undefined
      }
      try {
        opts.acknowledged.add(await rpc<string>('eth_sendRawTransaction', [bulky(opts.spec, opts.from, nonce)]))
        nonce++
      } catch (e) {
        if (!/no space left on device \(ENOSPC\)/.test((e as Error).message)) throw e
        refused++
      }
    }
    void rpc('eth_sendRawTransaction', [bulky(opts.spec, opts.from, nonce)]).catch(() => {})
    for (let turns = Math.floor(opts.random() * 50); turns > 0; turns--) await new Promise<void>((resolve) => setImmediate(resolve))
    await kill(node)
  } finally {
    await kill(node)
    if (filler !== undefined) rmSync(filler)
  }
  node = await spawnNode(args, 120_000, opts.cli)
  try {
    for (const hash of opts.acknowledged) {
      const text = await receiptText(node.httpUrl, hash)
      if (text === null || !text.includes('"status":"0x1"'))
        throw new Error(`acknowledged transaction ${hash} lost across the full disk and the kill: ${text}`)
    }
    return { receiptsChecked: opts.acknowledged.size, head: await checkChainLinks(node.httpUrl), refused }
  } finally {
    await node.stop()
  }
}
