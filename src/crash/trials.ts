import { signedTransfer } from '../testing/testNode.js'
import { type SpawnedNode, spawnNode } from '../testing/spawnNode.js'
import { rpcCompatPath } from '../testing/paths.js'
import type { ChainSpec } from '../chain/spec.js'

// Kill trials: SIGKILL a node while it works, restart it on the same datadir, and check that nothing it reported
// stored was lost or changed and that the chain still links from head to genesis.

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
  const args = ['--chain', 'dev', '--datadir', opts.datadir, '--workers', '1']
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
    for (const [hash, text] of opts.seen) {
      const after = await receiptText(node.httpUrl, hash)
      if (after !== text) throw new Error(`receipt ${hash} changed across the kill:\n${text}\n${after}`)
    }
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
  const args = ['--chain', rpcCompatPath('genesis.json'), '--datadir', opts.datadir, '--import', rpcCompatPath('chain.rlp')]
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
